import { describe, expect, it } from "vitest";
import { redactSecrets, redactUrl, scrubSecrets } from "./redact.js";

describe("redaction", () => {
  it("replaces secret-looking keys at any depth", () => {
    expect(
      redactSecrets({
        UserName: "root",
        Password: "x",
        nested: [{ "X-Auth-Token": "t", apiKey: "k", note: "fine" }],
      }),
    ).toEqual({
      UserName: "root",
      Password: "[redacted]",
      nested: [{ "X-Auth-Token": "[redacted]", apiKey: "[redacted]", note: "fine" }],
    });
  });

  it("removes passwords from URLs, keeping the user name", () => {
    expect(redactUrl("https://root:calvin@10.0.0.5:443/redfish/v1")).toBe(
      "https://root:[redacted]@10.0.0.5/redfish/v1",
    );
    expect(redactUrl("postgres://racksmith:s3cret@db:5432/racksmith")).toBe(
      "postgres://racksmith:[redacted]@db:5432/racksmith",
    );
    expect(redactUrl("not a url //u:p@host")).toBe("not a url //u:[redacted]@host");
    expect(redactUrl("https://10.0.0.5")).toBe("https://10.0.0.5");
  });

  it("scrubs known secrets from free text", () => {
    expect(scrubSecrets("token abc123 and pw hunter2", ["abc123", "hunter2", undefined])).toBe(
      "token [redacted] and pw [redacted]",
    );
  });
});
