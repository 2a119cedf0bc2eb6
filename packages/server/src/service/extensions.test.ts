import { describe, expect, it } from "vitest";
import { createExtensionPoint, Extensions } from "./extensions.js";

describe("Extensions", () => {
  it("lists what was added to a point, in order, and nothing for another point", () => {
    const numbers = createExtensionPoint<number>("test.numbers");
    const names = createExtensionPoint<string>("test.names");
    const extensions = new Extensions();
    expect(extensions.list(numbers)).toEqual([]);
    extensions.add(numbers, 1);
    extensions.add(numbers, 2);
    expect(extensions.list(numbers)).toEqual([1, 2]);
    expect(extensions.list(names)).toEqual([]);
  });
});
