import type { ManagerAccount } from "@racksmith/core/redfish";

/** Account 1 is the iDRAC's reserved anonymous slot; users live in slots 2…16. */
const FIRST_USER_SLOT = 2;

/** The lowest empty, disabled account slot (iDRAC has a fixed table; creating a user fills a slot). */
export function freeAccountSlot(accounts: readonly ManagerAccount[]): ManagerAccount | undefined {
  return accounts
    .filter(
      (account) =>
        typeof account["@odata.id"] === "string" &&
        Number(account.Id) >= FIRST_USER_SLOT &&
        (account.UserName ?? "").trim() === "" &&
        account.Enabled !== true,
    )
    .sort((a, b) => Number(a.Id) - Number(b.Id))[0];
}

/** Two writes, because the iDRAC only blanks the name of an account that is already disabled. */
export const DISABLE_ACCOUNT = { Enabled: false, RoleId: "None" } as const;
export const FREE_ACCOUNT = { UserName: "" } as const;
