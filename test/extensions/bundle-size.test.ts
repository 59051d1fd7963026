import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths";

const run = promisify(execFile);
const SCRIPT = path.join(ROOT, "scripts", "bundle-extensions.ts");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

describe("npm run extensions:bundle", () => {
  it("bundles every extension under Shopify's 64 KB", async () => {
    const { stdout } = await run(TSX, [SCRIPT], { cwd: ROOT });
    const figures = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      limitBytes: number;
      extensions: Record<string, number>;
      overLimit: number;
    };
    expect(figures.limitBytes).toBe(65_536);
    expect(Object.keys(figures.extensions).sort()).toEqual([
      "courier-bulk-send",
      "courier-delivery-block",
      "courier-labels",
      "courier-send-action",
      "shopper-order-status-block",
      "shopper-thank-you-block",
    ]);
    for (const bytes of Object.values(figures.extensions)) {
      expect(bytes).toBeGreaterThan(1_000);
      expect(bytes).toBeLessThanOrEqual(65_536);
    }
    expect(figures.overLimit).toBe(0);
  });

  it("fails when a bundle is over the limit, naming it", async () => {
    const failure = await run(TSX, [SCRIPT, "--limit", "20000"], { cwd: ROOT }).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toMatch(
      /courier-delivery-block\s+[\d.]+ KB of 20 KB {2}OVER THE LIMIT/,
    );
    expect(failure?.stderr).toContain("Shopify refuses to deploy them");
  });
});
