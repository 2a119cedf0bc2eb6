import { describe, expect, it } from "vitest";
import { type EndpointPriorityFacts, endpointsToExplore } from "./priority.js";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const MINUTE = 60_000;
/** Long after every exploration below, with nothing fresh: the order alone decides. */
const LATER = { now: at(60), freshForMs: MINUTE };
const addresses = (endpoints: readonly EndpointPriorityFacts[]) => endpoints.map((e) => e.address);

describe("endpointsToExplore", () => {
  const endpoints = [
    { address: "old", explorationRequested: false, lastExploredAt: at(1) },
    { address: "newer", explorationRequested: false, lastExploredAt: at(5) },
    { address: "never-b", explorationRequested: false, lastExploredAt: null },
    { address: "requested-late", explorationRequested: true, lastExploredAt: at(9) },
    { address: "never-a", explorationRequested: false, lastExploredAt: null },
    { address: "requested-early", explorationRequested: true, lastExploredAt: at(2) },
  ];

  it("puts re-explore requests first, then endpoints never explored, then the oldest", () => {
    expect(addresses(endpointsToExplore(endpoints, { budget: 10, ...LATER }))).toEqual([
      "requested-early",
      "requested-late",
      "never-a",
      "never-b",
      "old",
      "newer",
    ]);
  });

  it("keeps to the budget", () => {
    expect(addresses(endpointsToExplore(endpoints, { budget: 3, ...LATER }))).toEqual([
      "requested-early",
      "requested-late",
      "never-a",
    ]);
    expect(endpointsToExplore(endpoints, { budget: 0, ...LATER })).toEqual([]);
  });

  it("explores endpoints never explored in the order the inventory first saw them, then by address", () => {
    const booted = [
      { address: "10.0.0.9", explorationRequested: false, lastExploredAt: null, firstSeenAt: at(2) },
      { address: "10.0.0.7", explorationRequested: false, lastExploredAt: null, firstSeenAt: at(1) },
      { address: "10.0.0.3", explorationRequested: false, lastExploredAt: null, firstSeenAt: at(2) },
      { address: "10.0.0.1", explorationRequested: false, lastExploredAt: null, firstSeenAt: at(3) },
      { address: "10.0.0.2", explorationRequested: false, lastExploredAt: at(0), firstSeenAt: at(0) },
    ];
    expect(addresses(endpointsToExplore(booted, { budget: 10, ...LATER }))).toEqual([
      "10.0.0.7",
      "10.0.0.3",
      "10.0.0.9",
      "10.0.0.1",
      "10.0.0.2",
    ]);
  });

  describe("leaves out an endpoint explored less than freshForMs ago, unless it was asked for or failed", () => {
    const now = at(10);
    const cases: Array<[string, Omit<EndpointPriorityFacts, "address">, boolean]> = [
      ["explored a moment ago", { explorationRequested: false, lastExploredAt: at(10) }, false],
      ["explored 4 minutes ago", { explorationRequested: false, lastExploredAt: at(6) }, false],
      ["explored exactly 5 minutes ago", { explorationRequested: false, lastExploredAt: at(5) }, true],
      ["explored 9 minutes ago", { explorationRequested: false, lastExploredAt: at(1) }, true],
      ["asked for, explored a moment ago", { explorationRequested: true, lastExploredAt: at(10) }, true],
      [
        "failed a moment ago",
        { explorationRequested: false, lastExploredAt: at(10), lastExplorationFailed: true },
        true,
      ],
      ["never explored", { explorationRequested: false, lastExploredAt: null }, true],
    ];
    it.each(cases)("%s: explored %s", (_what, facts, explored) => {
      const chosen = endpointsToExplore([{ address: "bmc", ...facts }], {
        budget: 10,
        now,
        freshForMs: 5 * MINUTE,
      });
      expect(chosen.length === 1).toBe(explored);
    });
  });

  it("spends no budget on fresh endpoints: the stale ones behind them are explored", () => {
    const site = [
      { address: "fresh-1", explorationRequested: false, lastExploredAt: at(9) },
      { address: "fresh-2", explorationRequested: false, lastExploredAt: at(9) },
      { address: "stale", explorationRequested: false, lastExploredAt: at(8) },
      { address: "stalest", explorationRequested: false, lastExploredAt: at(2) },
    ];
    expect(addresses(endpointsToExplore(site, { budget: 2, now: at(10), freshForMs: 2 * MINUTE }))).toEqual([
      "stalest",
      "stale",
    ]);
  });
});
