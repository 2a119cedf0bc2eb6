import type { MockupLockoutPolicy } from "./accountLockout.js";
import type { BehaviorRegistry, MockupRequestInfo } from "./behaviors.js";
import type { MockupService } from "./mockupService.js";
import type { MockupState } from "./mockupState.js";
import type { PowerListeners } from "./powerEvents.js";
import type { StrictRules } from "./strict/index.js";
import type { MockupAuthMode, MockupRequest } from "./types.js";

export interface MockupServiceSettings {
  readonly authMode: MockupAuthMode;
  /** Server-driven paging: collections longer than this are answered a page at a time. */
  readonly pageSize: number | undefined;
  readonly taskDurationMs: number;
  readonly lockout: MockupLockoutPolicy | undefined;
}

/** What the per-method handlers work with: one virtual BMC's state, settings and behaviors. */
export interface ServiceCore {
  readonly service: MockupService;
  readonly state: MockupState;
  readonly behaviors: BehaviorRegistry;
  readonly settings: MockupServiceSettings;
  readonly power: PowerListeners;
  /** The Redfish rules this service enforces (strict mode minus its leniencies). */
  readonly rules: StrictRules;
}

/** A request after auth: method upper-cased, headers lower-cased, the user known. */
export interface ServiceRequest extends MockupRequestInfo {
  readonly body: MockupRequest["body"];
}
