import { hasErrorCode, isRacksmithError } from "@racksmith/core";
import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { xccError } from "../src/testing/index.js";
import { LENOVO_MOCKUPS, xccMockup } from "./support/lenovoMockups.js";

const xcc = useDriverMockup({ beforeAll, afterAll, beforeEach }, xccMockup(LENOVO_MOCKUPS.sr670v2));

describe("when the XCC refuses", () => {
  it("an unknown BIOS attribute (400): machine setup stops before touching the boot order", async () => {
    xcc.intercept("PATCH", "/Bios/Pending", () =>
      xccError(
        400,
        "Base.1.8.PropertyUnknown",
        "The property Foo_Bar is not in the list of valid properties for the resource.",
      ),
    );
    const error = await xcc
      .createDriver()
      .machineSetup({ biosProfile: { Foo_Bar: "On" } })
      .catch((e: unknown) => e);
    expect(hasErrorCode(error, "redfish_http_error")).toBe(true);
    expect(error).toMatchObject({
      status: "INVALID_ARGUMENT",
      httpStatus: 400,
      path: "/redfish/v1/Systems/1/Bios/Pending",
      details: { messageIds: ["Base.1.8.PropertyUnknown"] },
    });
    expect(xcc.writes.map((r) => r.path)).toEqual(["/redfish/v1/Systems/1/Bios/Pending"]);
  });

  it("a conflicting write (409) mid-lockdown: the error says so and the status shows the partial result", async () => {
    xcc.intercept("PATCH", "/EthernetInterfaces/ToHost", () =>
      xccError(409, "Base.1.8.ResourceInUse", "The change could not be made because the resource is in use."),
    );
    const driver = xcc.createDriver();
    const error = await driver.setLockdown(true).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "redfish_http_error", status: "ABORTED", httpStatus: 409 });
    expect(await driver.lockdownStatus()).toEqual({
      state: "partial",
      message:
        "enabled: IPMI over KCS off, firmware rollback off; disabled: host USB LAN off, front USB port host-only",
    });
  });

  it("while busy applying other settings (503, Retry-After): the write is not blindly repeated", async () => {
    xcc.intercept("PATCH", "/Systems/1/Pending", () =>
      xccError(503, "Base.1.8.ServiceTemporarilyUnavailable", "The service is busy applying settings.", {
        "retry-after": "30",
      }),
    );
    const error = await xcc
      .createDriver()
      .bootFirst("pxe")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "redfish_http_error", status: "UNAVAILABLE", httpStatus: 503 });
    expect(xcc.writesTo("/Systems/1/Pending")).toHaveLength(1);
  });

  it("a stale ETag (412): the BIOS write fails instead of overwriting a concurrent change", async () => {
    xcc.intercept("PATCH", "/Bios/Pending", () =>
      xccError(
        412,
        "Base.1.8.PreconditionFailed",
        "The ETag supplied did not match the ETag required to change this resource.",
      ),
    );
    const error = await xcc
      .createDriver()
      .clearTpm()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: "FAILED_PRECONDITION", httpStatus: 412 });
  });

  it("a weak new password (400 echoing it): the password never reaches the error", async () => {
    const secret = "Weak-Pass-1";
    xcc.intercept("PATCH", "/AccountService/Accounts/1", () =>
      xccError(
        400,
        "Base.1.8.PropertyValueFormatError",
        `The value ${secret} for the property Password is of a different format than the property can accept.`,
      ),
    );
    const error = await xcc
      .createDriver()
      .changePassword("root", secret)
      .catch((e: unknown) => e);
    expect(isRacksmithError(error)).toBe(true);
    expect(error).toMatchObject({ httpStatus: 400 });
    const everything = `${String(error)} ${(error as Error).stack} ${JSON.stringify(error)} ${JSON.stringify((error as { messages?: unknown }).messages)}`;
    expect(everything).not.toContain(secret);
    expect(everything).toContain("[redacted]");
  });

  it("a UEFI password change echoing the passwords: neither reaches the error", async () => {
    xcc.intercept("POST", "/Bios/Actions/Bios.ChangePassword", () =>
      xccError(
        400,
        "Base.1.8.ActionParameterValueFormatError",
        "OldPassword Old-Uefi-7 and NewPassword New-Uefi-8 are rejected.",
      ),
    );
    const error = await xcc
      .createDriver()
      .changeUefiPassword("Old-Uefi-7", "New-Uefi-8")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ httpStatus: 400 });
    expect(`${String(error)} ${JSON.stringify(error)}`).not.toMatch(/Old-Uefi-7|New-Uefi-8/);
  });
});
