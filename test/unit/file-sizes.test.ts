import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths";

/** Every .ts/.tsx file under app/ with its line count (data files aside: app/addresses/data). */
function appFiles(dir = path.join(ROOT, "app")): { file: string; lines: number; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "data" ? [] : appFiles(full);
    if (!/\.tsx?$/.test(entry.name)) return [];
    const text = readFileSync(full, "utf8");
    return [{ file: path.relative(ROOT, full), lines: text.split("\n").length, text }];
  });
}

describe("the size of app/'s files (issue 13)", () => {
  it("keeps every file under 600 lines, and at most four over 400, each saying why", () => {
    const files = appFiles();
    expect(files.filter((f) => f.lines > 600).map((f) => f.file)).toEqual([]);
    const long = files.filter((f) => f.lines > 400);
    expect(long.length, long.map((f) => f.file).join(", ")).toBeLessThanOrEqual(4);
    for (const f of long)
      expect(f.text.split("\n")[0], f.file).toMatch(/^\/\/ Longer than 400 lines: /);
  });
});

describe("the size of the Shopify stand-in's files", () => {
  it("keeps every file of sandbox/shopify/ under 600 lines, its schema and README included", () => {
    const files = (function list(dir: string): string[] {
      return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? list(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
      );
    })(path.join(ROOT, "sandbox", "shopify"));
    const long = files
      .filter((file) => readFileSync(file, "utf8").split("\n").length > 600)
      .map((file) => path.relative(ROOT, file));
    expect(long).toEqual([]);
  });
});
