import { type FirmwareUpdateRequest, type JobRef, NotSupportedError, taskRefOf } from "@racksmith/core";
import type { UpdateService } from "@racksmith/core/redfish";
import type { BmcAccess } from "../bmc/index.js";
import { multipartTarget, multipartUpdateParameters } from "./multipartParameters.js";

const UPLOAD_TIMEOUT_MS = 30 * 60_000;

/** One component per upload, named by Supermicro's target URI, with its preserve options. */
export async function uploadMultipart(
  bmc: BmcAccess,
  service: UpdateService,
  request: Extract<FirmwareUpdateRequest, { method: "multipart" }>,
): Promise<JobRef> {
  const uri = service.MultipartHttpPushUri;
  if (!uri)
    throw new NotSupportedError("firmware multipart upload", "the UpdateService has no MultipartHttpPushUri");
  const paths = {
    systemPath: await bmc.systemPath(),
    managerPath: await bmc.managerPath(),
    firmwareInventoryPath:
      service.FirmwareInventory?.["@odata.id"] ?? "/redfish/v1/UpdateService/FirmwareInventory",
  };
  const target = multipartTarget(request.targets, paths);
  const response = await bmc.client.postMultipart(
    uri,
    {
      parameters: multipartUpdateParameters(target, paths, request.applyTime ?? "Immediate"),
      file: { filename: request.filename, data: request.data },
    },
    { timeoutMs: UPLOAD_TIMEOUT_MS },
  );
  return taskRefOf(response);
}
