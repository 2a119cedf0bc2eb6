import { describe, expect, it } from "vitest";
import { AllocationBlockedError } from "../lifecycle/instances/errors.js";
import { overrideTemplate } from "./overrideTemplates.js";

const NOW = new Date("2026-01-01T00:00:00.000Z");

describe("overrideTemplate", () => {
  it.each([
    [undefined, "Host is under maintenance"],
    ["", "Host is under maintenance"],
    ["   ", "Host is under maintenance"],
    ["ticket OPS-7", "ticket OPS-7"],
  ])("message %j → %j", (message, expected) => {
    const report = overrideTemplate("maintenance", NOW, message === undefined ? {} : { message });
    expect(report.alerts.map((alert) => alert.message)).toEqual([expected]);
  });

  it("never leaves an empty reason in an allocation refusal", () => {
    const [alert] = overrideTemplate("maintenance", NOW, { message: "" }).alerts;
    const refusal = new AllocationBlockedError("host-1", alert ? [alert, { ...alert, message: "" }] : []);
    expect(refusal.message).toBe(
      "host host-1 cannot be allocated: Maintenance: Host is under maintenance; Maintenance",
    );
  });
});
