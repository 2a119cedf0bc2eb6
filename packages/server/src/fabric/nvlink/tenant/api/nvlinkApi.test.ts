import { describe, expect, it } from "vitest";
import { nvlinkApi } from "./nvlinkApi.js";

describe("nvlinkApi without fabrics.nvlink", () => {
  it("refuses every call with nvlink_not_configured naming the section", async () => {
    const api = nvlinkApi(null);
    for (const call of [
      () => api.create({ tenantOrg: "acme" }),
      () => api.list({}),
      () => api.get("x"),
      () => api.delete("x"),
      () => api.browse("nmx/v1/gpus"),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "nvlink_not_configured", status: "FAILED_PRECONDITION" });
      expect((error as Error).message).toContain("NVLink is not configured (fabrics.nvlink)");
    }
  });
});
