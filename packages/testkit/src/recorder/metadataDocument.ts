import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { type RedfishClient, RedfishMalformedResponseError } from "@racksmith/core";

const METADATA_PATH = "/redfish/v1/$metadata";
const TIMEOUT_MS = 60_000;

/**
 * The `$metadata` XML. Read through the client first; when the client refuses a non-JSON answer, read it once
 * more anonymously (Redfish serves `$metadata` without authentication), so no credential is sent outside the client.
 */
export async function readMetadataDocument(client: RedfishClient, insecure: boolean): Promise<string> {
  try {
    return await client.getText(METADATA_PATH);
  } catch (error) {
    if (!(error instanceof RedfishMalformedResponseError)) throw error;
    return fetchAnonymousText(new URL(METADATA_PATH, client.origin), insecure);
  }
}

function fetchAnonymousText(url: URL, insecure: boolean): Promise<string> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: "GET",
        headers: { accept: "application/xml" },
        timeout: TIMEOUT_MS,
        rejectUnauthorized: !insecure,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(Buffer.concat(chunks).toString("utf8"));
          else reject(new Error(`GET ${url.pathname} returned HTTP ${status}`));
        });
      },
    );
    request.on("timeout", () =>
      request.destroy(new Error(`GET ${url.pathname} timed out after ${TIMEOUT_MS} ms`)),
    );
    request.on("error", reject);
    request.end();
  });
}
