import { normalizeMac } from "@racksmith/core";
import type { Kysely, Transaction } from "kysely";
import type { Database, RacksmithDatabase } from "../../db/index.js";
import type {
  ApplyExpectedMachinesResult,
  CredentialStore,
  ExpectedMachine,
  ExpectedMachinesMode,
} from "../contracts.js";
import { notifyBmcEndpointsChanged } from "../dhcp/index.js";
import {
  ExpectedMachineExistsError,
  ExpectedMachineNotFoundError,
  ExpectedMachinesRejectedError,
  InvalidExpectedMachineError,
} from "../errors.js";
import { requireMac } from "../requireMac.js";
import { checkExpectedMachines, rejectRow } from "./batch.js";
import {
  type PlannedMachine,
  planFactoryCredentials,
  removeFactoryCredentials,
  type StoredFactoryLogin,
  storeFactoryCredentials,
} from "./factoryCredentials.js";
import { type ExpectedMachineRow, toExpectedMachine, toRowValues } from "./rows.js";
import { type ValidExpectedMachine, validateExpectedMachine } from "./validate.js";

type Db = Kysely<RacksmithDatabase>;

// Rows per INSERT: 13 parameters each, well under PostgreSQL's 65,535 per statement.
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

function validOrThrow(input: unknown): ValidExpectedMachine {
  const checked = validateExpectedMachine(input);
  if (!checked.ok) throw new InvalidExpectedMachineError(checked.problems);
  return checked.machine;
}

/**
 * Expected machines in the database, their factory passwords in the credential store. Every write is one
 * transaction; new passwords are stored before it commits (a failure rolls the rows back) and removed ones
 * after it commits (a rolled-back write never loses a password its row still names). A new static
 * `bmcAddress` is announced on `BMC_ENDPOINTS_CHANGED_TOPIC` when the write commits.
 */
export class ExpectedMachineStore {
  constructor(
    private readonly database: Database,
    private readonly credentials: CredentialStore,
  ) {}

  async get(bmcMac: string): Promise<ExpectedMachine | undefined> {
    const mac = normalizeMac(bmcMac);
    if (!mac) return undefined;
    const row = await this.database.db
      .selectFrom("expected_machines")
      .selectAll()
      .where("bmc_mac", "=", mac)
      .executeTakeFirst();
    return row && toExpectedMachine(row);
  }

  async list(): Promise<ExpectedMachine[]> {
    const rows = await this.database.db
      .selectFrom("expected_machines")
      .selectAll()
      .orderBy("bmc_mac")
      .execute();
    return rows.map(toExpectedMachine);
  }

  async add(input: unknown): Promise<ExpectedMachine> {
    const machine = validOrThrow(input);
    const planned = await planFactoryCredentials([machine], new Map(), this.credentials);
    return this.database.db.transaction().execute(async (trx) => {
      const [row] = await insertNew(trx, planned, new Date());
      if (!row) throw new ExpectedMachineExistsError(machine.bmcMac);
      await storeFactoryCredentials(planned, this.credentials);
      await notifyBmcEndpointsChanged(trx, this.database.schema, newStaticAddresses(planned, new Map()));
      return toExpectedMachine(row);
    });
  }

  /** Replaces every field of a stored machine; `input.bmcMac` may be omitted but must match when given. */
  async update(bmcMac: string, input: unknown): Promise<ExpectedMachine> {
    const mac = requireMac(bmcMac);
    const isObject = typeof input === "object" && input !== null && !Array.isArray(input);
    const given = isObject ? (input as { bmcMac?: unknown }).bmcMac : undefined;
    if (given !== undefined && normalizeMac(given) !== mac) {
      throw new InvalidExpectedMachineError([
        { field: "bmcMac", message: `${JSON.stringify(given)} is not the machine being updated (${mac})` },
      ]);
    }
    const machine = validOrThrow(isObject ? { ...input, bmcMac: mac } : input);
    const { row, removed } = await this.database.db.transaction().execute(async (trx) => {
      const stored = await storedLogins(trx, [mac], { forUpdate: true });
      if (!stored.has(mac)) throw new ExpectedMachineNotFoundError(mac);
      const planned = await planFactoryCredentials([machine], stored, this.credentials);
      const [updated] = await upsert(trx, planned, new Date());
      await storeFactoryCredentials(planned, this.credentials);
      await notifyBmcEndpointsChanged(trx, this.database.schema, newStaticAddresses(planned, stored));
      return { row: updated as ExpectedMachineRow, removed: removedLogins(planned) };
    });
    await removeFactoryCredentials(removed, this.credentials);
    return toExpectedMachine(row);
  }

  async delete(bmcMac: string): Promise<void> {
    const mac = requireMac(bmcMac);
    const deleted = await this.database.db
      .deleteFrom("expected_machines")
      .where("bmc_mac", "=", mac)
      .returning("bmc_mac")
      .executeTakeFirst();
    if (!deleted) throw new ExpectedMachineNotFoundError(mac);
    await removeFactoryCredentials([mac], this.credentials);
  }

  /**
   * Bulk add or replace-all in one transaction. Without `acceptPartial` any bad row rejects the whole
   * request (`ExpectedMachinesRejectedError` with every row's result) and nothing changes. A replace-all
   * keeps a stored machine whose MAC a rejected row names: a typo never deletes what was there.
   */
  async apply(
    rows: readonly unknown[],
    options: { mode: ExpectedMachinesMode; acceptPartial?: boolean },
  ): Promise<ApplyExpectedMachinesResult> {
    const batch = checkExpectedMachines(rows);
    const adding = options.mode === "add";
    const refuseIfRejected = () => {
      if (!options.acceptPartial && batch.results.some((result) => !result.ok)) {
        throw new ExpectedMachinesRejectedError(batch.results);
      }
    };
    const rejectExisting = (isStored: (bmcMac: string) => boolean) => {
      for (const [index, machine] of batch.valid) {
        if (isStored(machine.bmcMac)) {
          rejectRow(batch, index, "expected_machine_exists", `bmcMac: ${machine.bmcMac} is already expected`);
        }
      }
      refuseIfRejected();
    };
    const { deleted, removed } = await this.database.db.transaction().execute(async (trx) => {
      const stored = await storedLogins(trx, adding ? [...batch.named] : undefined);
      if (adding) rejectExisting((bmcMac) => stored.has(bmcMac));
      else refuseIfRejected();
      let planned = await planFactoryCredentials([...batch.valid.values()], stored, this.credentials);
      const now = new Date();
      if (adding) {
        const inserted = new Set((await insertNew(trx, planned, now)).map((row) => row.bmc_mac));
        // Added by a concurrent request since the check above.
        rejectExisting((bmcMac) => !inserted.has(bmcMac));
        planned = planned.filter(({ machine }) => inserted.has(machine.bmcMac));
      } else {
        await upsert(trx, planned, now);
      }
      const obsolete = adding ? [] : [...stored.keys()].filter((mac) => !batch.named.has(mac));
      for (const part of chunks(obsolete)) {
        await trx.deleteFrom("expected_machines").where("bmc_mac", "in", part).execute();
      }
      await storeFactoryCredentials(planned, this.credentials);
      await notifyBmcEndpointsChanged(trx, this.database.schema, newStaticAddresses(planned, stored));
      return {
        deleted: obsolete.length,
        removed: [
          ...removedLogins(planned),
          ...obsolete.filter((mac) => stored.get(mac)?.has_factory_password),
        ],
      };
    });
    await removeFactoryCredentials(removed, this.credentials);
    return { applied: batch.valid.size, deleted, results: batch.results };
  }
}

/** A stored machine's factory login and static address. */
type StoredMachine = StoredFactoryLogin & { bmc_address: string | null };

/** The written machines whose static address is new (a static address dropped leaves the DHCP lease's). */
function newStaticAddresses(
  planned: readonly PlannedMachine[],
  stored: ReadonlyMap<string, StoredMachine>,
): string[] {
  return planned
    .filter(
      ({ machine }) =>
        machine.bmcAddress !== null && machine.bmcAddress !== stored.get(machine.bmcMac)?.bmc_address,
    )
    .map(({ machine }) => machine.bmcMac);
}

function removedLogins(planned: readonly PlannedMachine[]): string[] {
  return planned.filter(({ change }) => change === "delete").map(({ machine }) => machine.bmcMac);
}

/** Stored factory logins and static addresses by MAC (of these MACs, or of every machine). */
async function storedLogins(
  trx: Transaction<RacksmithDatabase>,
  macs: string[] | undefined,
  options: { forUpdate?: boolean } = {},
): Promise<Map<string, StoredMachine>> {
  const select = () => {
    const query = trx
      .selectFrom("expected_machines")
      .select(["bmc_mac", "has_factory_password", "bmc_address"]);
    return options.forUpdate ? query.forUpdate() : query;
  };
  const rows = macs === undefined ? await select().execute() : [];
  for (const part of chunks(macs ?? [])) {
    rows.push(...(await select().where("bmc_mac", "in", part).execute()));
  }
  return new Map(rows.map((row) => [row.bmc_mac, row]));
}

function values(planned: readonly PlannedMachine[], now: Date) {
  return planned.map(({ machine, hasFactoryPassword }) =>
    toRowValues(machine, hasFactoryPassword, { createdAt: now, updatedAt: now }),
  );
}

/** Inserts the machines whose MAC is not stored yet; returns those rows. */
async function insertNew(
  trx: Db,
  planned: readonly PlannedMachine[],
  now: Date,
): Promise<ExpectedMachineRow[]> {
  const inserted: ExpectedMachineRow[] = [];
  for (const part of chunks(values(planned, now))) {
    inserted.push(
      ...(await trx
        .insertInto("expected_machines")
        .values(part)
        .onConflict((conflict) => conflict.column("bmc_mac").doNothing())
        .returningAll()
        .execute()),
    );
  }
  return inserted;
}

/** Inserts or replaces every column but `created_at`. */
async function upsert(trx: Db, planned: readonly PlannedMachine[], now: Date): Promise<ExpectedMachineRow[]> {
  const written: ExpectedMachineRow[] = [];
  for (const part of chunks(values(planned, now))) {
    written.push(
      ...(await trx
        .insertInto("expected_machines")
        .values(part)
        .onConflict((conflict) =>
          conflict.column("bmc_mac").doUpdateSet((excluded) => ({
            bmc_address: excluded.ref("excluded.bmc_address"),
            bmc_address_ipv4: excluded.ref("excluded.bmc_address_ipv4"),
            factory_username: excluded.ref("excluded.factory_username"),
            has_factory_password: excluded.ref("excluded.has_factory_password"),
            chassis_serial: excluded.ref("excluded.chassis_serial"),
            fallback_dpu_serials: excluded.ref("excluded.fallback_dpu_serials"),
            dpu_mode: excluded.ref("excluded.dpu_mode"),
            driver: excluded.ref("excluded.driver"),
            labels: excluded.ref("excluded.labels"),
            sku_id: excluded.ref("excluded.sku_id"),
            updated_at: excluded.ref("excluded.updated_at"),
          })),
        )
        .returningAll()
        .execute()),
    );
  }
  return written;
}
