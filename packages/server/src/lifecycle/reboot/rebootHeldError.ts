/**
 * A state's own power action a site-wide cap holds back: the run ends as a wait with this reason and the
 * state runs again later (handlers are idempotent). Control flow inside the lifecycle, never an API error.
 */
export class RebootHeldError extends Error {
  constructor(
    readonly machineId: string,
    readonly why: string,
  ) {
    super(`power action on ${machineId} held back: ${why}`);
    this.name = "RebootHeldError";
  }
}
