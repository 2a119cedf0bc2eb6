import { describe, expect, it } from "vitest";
import { endpointsToExplore } from "./priority.js";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

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
    expect(endpointsToExplore(endpoints, 10).map((e) => e.address)).toEqual([
      "requested-early",
      "requested-late",
      "never-a",
      "never-b",
      "old",
      "newer",
    ]);
  });

  it("keeps to the budget", () => {
    expect(endpointsToExplore(endpoints, 3).map((e) => e.address)).toEqual([
      "requested-early",
      "requested-late",
      "never-a",
    ]);
    expect(endpointsToExplore(endpoints, 0)).toEqual([]);
  });

  it("explores endpoints never explored in the order the inventory first saw them, then by address", () => {
    const booted = [
      { address: "10.0.0.9", explorationRequested: false, lastExploredAt: null, firstSeenAt: at(2) },
      { address: "10.0.0.7", explorationRequested: false, lastExploredAt: null, firstSeenAt: at(1) },
      { address: "10.0.0.3", explorationRequested: false, lastExploredAt: null, firstSeenAt: at(2) },
      { address: "10.0.0.1", explorationRequested: false, lastExploredAt: null, firstSeenAt: at(3) },
      { address: "10.0.0.2", explorationRequested: false, lastExploredAt: at(0), firstSeenAt: at(0) },
    ];
    expect(endpointsToExplore(booted, 10).map((e) => e.address)).toEqual([
      "10.0.0.7",
      "10.0.0.3",
      "10.0.0.9",
      "10.0.0.1",
      "10.0.0.2",
    ]);
  });
});
