import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BmcDriverDefinition,
  collectRegistrations,
  exploreBmc,
  redfishStandardDriver,
} from "@racksmith/core";
import { RedfishClient } from "@racksmith/core/redfish";
import dell from "@racksmith/driver-dell";
import hpe from "@racksmith/driver-hpe";
import lenovo from "@racksmith/driver-lenovo";
import nvidiaDpu from "@racksmith/driver-nvidia-dpu";
import supermicro from "@racksmith/driver-supermicro";
import {
  DEFAULT_MOCKUP_CREDENTIALS,
  MockupServer,
  presentSharedVendors,
  sharedMockup,
} from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import { canonicalReport, reportDigest } from "./support/canonicalReport.js";

// Issue 19: making exploration faster must not change what it reports. Each real capture is explored as the
// site explorer does (every vendor driver loaded, and RedfishStandard alone), and the report's content,
// ordering aside, must be the one recorded here. The captures stay outside the repository, so only digests
// of the reports are kept; RACKSMITH_EXPLORE_REPORTS_DIR=<dir> also writes each canonical report there the
// first time and compares it in full (a readable diff) afterwards.
const DIGESTS: Record<string, string> = {
  "dell-detected": "c8c5f90fe380183d",
  "dell-standard": "a5a783263c993021",
  "hpe-detected": "c3877a237720a7b4",
  "hpe-standard": "796da19120d5c5ea",
  "lenovo-detected": "d4424cbb286d5bc5",
  "lenovo-standard": "eef9a87b56896c7f",
  "supermicro-detected": "b4ca5d6e908be430",
  "supermicro-standard": "32bf400997d58571",
  "nvidia_dpu-detected": "9b2baaf75c7b9a2a",
  "nvidia_dpu-standard": "acbda4bcd8f6cc59",
};

const drivers: BmcDriverDefinition[] = [];
for (const plugin of [dell, hpe, lenovo, supermicro, nvidiaDpu]) {
  drivers.push(...(await collectRegistrations(plugin)).bmcDrivers);
}
const MODES = { detected: drivers, standard: [] } as const;
const present = presentSharedVendors("comparing the explore reports of the real captures");
const reportsDir = process.env.RACKSMITH_EXPLORE_REPORTS_DIR;
const cases = present.flatMap((vendor) =>
  (Object.keys(MODES) as Array<keyof typeof MODES>).map((mode) => [vendor, mode] as const),
);

describe.skipIf(cases.length === 0)("the explore report of each real capture", () => {
  it.each(cases)("%s (%s driver) is unchanged, ordering aside", async (vendor, mode) => {
    const server = await MockupServer.start({ root: sharedMockup(vendor) ?? "", auth: "basic" });
    const client = new RedfishClient({ address: server.url, credentials: DEFAULT_MOCKUP_CREDENTIALS });
    try {
      const report = await exploreBmc(client, { drivers: MODES[mode], fallback: redfishStandardDriver });
      const content = canonicalReport(report, server.url);
      const name = `${vendor}-${mode}`;
      if (reportsDir) {
        const file = join(reportsDir, `${name}.json`);
        if (existsSync(file)) {
          expect(content).toEqual(JSON.parse(readFileSync(file, "utf8")));
        } else {
          mkdirSync(reportsDir, { recursive: true });
          writeFileSync(file, `${JSON.stringify(content, null, 1)}\n`);
        }
      }
      expect(
        reportDigest(content),
        `the ${name} report changed; compare it with RACKSMITH_EXPLORE_REPORTS_DIR and update DIGESTS if intended`,
      ).toBe(DIGESTS[name]);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
