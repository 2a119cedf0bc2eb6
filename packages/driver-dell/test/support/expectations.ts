import { expect } from "vitest";

/** The value, asserting it is there (for results whose type allows undefined). */
export function defined<T>(value: T | undefined): T {
  expect(value).toBeDefined();
  return value as T;
}
