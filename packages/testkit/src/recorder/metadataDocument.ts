import { type RedfishClient, RedfishMalformedResponseError } from "@racksmith/core/redfish";

const METADATA_PATH = "/redfish/v1/$metadata";

/**
 * The `$metadata` XML. Read through the client first; when the client refuses the answer as malformed, read it
 * once more anonymously (Redfish serves `$metadata` without authentication). Both reads go through the client,
 * so its TLS settings (`insecure`, a CA bundle) and timeouts apply and no credential is sent outside it.
 */
export async function readMetadataDocument(client: RedfishClient): Promise<string> {
  try {
    return await client.getText(METADATA_PATH);
  } catch (error) {
    if (!(error instanceof RedfishMalformedResponseError)) throw error;
    return client.getText(METADATA_PATH, { anonymous: true });
  }
}
