/** An IB partition's lifecycle (NICo's IbPartitionControllerState). */
export type IbPartitionState =
  | { state: "provisioning" }
  | { state: "ready" }
  | { state: "deleting" }
  | { state: "error"; cause: string };

export const IB_PARTITION_OBJECT_TYPE = "ib-partition";

/** Display names as the API and CLI show them. */
export function ibPartitionStateName(state: { state: string }): string {
  switch (state.state) {
    case "provisioning":
      return "Provisioning";
    case "ready":
      return "Ready";
    case "deleting":
      return "Deleting";
    case "error":
      return "Error";
    default:
      return state.state;
  }
}
