import os from "node:os";
import { describe, expect, it } from "vitest";
import { productionDependencies } from "../../app/pipeline/runner.server";

describe("the worker's lease owner", () => {
  it("differs between two starts on the same host with the same pid", () => {
    const first = productionDependencies().owner;
    const second = productionDependencies().owner;
    expect(first).not.toBe(second);
    expect(first.startsWith(`${os.hostname()}:${process.pid}:`)).toBe(true);
  });
});
