import type { StoredOutcome, TaggedState } from "./types.js";

/** Row shapes shared by the queue, the object store and the final write. */

export interface ObjectKey {
  objectType: string;
  objectId: string;
}

/** An object's current state as stored (the compare-and-set guard is `version`). */
export interface ObjectRow extends ObjectKey {
  state: TaggedState;
  version: number;
  enteredAt: Date;
  outcome: StoredOutcome | null;
}

export interface HistoryRow {
  state: TaggedState;
  version: number;
  enteredAt: Date;
  /** The last outcome recorded in the state when it was left; null while in it. */
  exitOutcome: StoredOutcome | null;
}

/** A held queue row: only the holder of this exact claim (owner + counter) may finish it. */
export interface Claim extends ObjectKey {
  owner: string;
  claimCount: number;
  enqueuedAt: Date;
  claimedAt: Date;
  /** Set when this claim took the row over from a worker whose lease had expired. */
  previousOwner: string | null;
  /** The object's state when it was claimed (only its handler changes it, guarded by `version`). */
  current: Pick<ObjectRow, "state" | "version" | "enteredAt">;
}
