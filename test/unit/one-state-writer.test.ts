import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Delivery.state has one writer, the folder app/models/delivery-state/ (one module, imported
 * through its index): it checks the move table and writes the timeline event in the same
 * transaction. This test reads the source of app/ and fails when any file outside that folder
 * writes the column, through Prisma or in raw SQL.
 */
const WRITER = path.join("models", "delivery-state");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** The argument text of each call that starts at `start` (just after its opening parenthesis). */
function callArgument(text: string, start: number): string {
  let depth = 1;
  for (let i = start; i < text.length; i += 1) {
    if (text[i] === "(") depth += 1;
    else if (text[i] === ")" && (depth -= 1) === 0) return text.slice(start, i);
  }
  return text.slice(start);
}

/** Where a file writes Delivery.state: Prisma writes whose data names `state`, and raw SQL. */
export function stateWrites(text: string): string[] {
  const found: string[] = [];
  const prismaWrite = /\.delivery\.(create|createMany|update|updateMany|upsert)\(/g;
  for (const match of text.matchAll(prismaWrite)) {
    const argument = callArgument(text, match.index + match[0].length);
    const data = argument.slice(argument.search(/\b(data|create|update)\s*:/));
    if (/\bstate\s*[:,}]/.test(data)) found.push(match[0] + argument.slice(0, 60));
  }
  const sql =
    /(UPDATE\s+"Delivery"\s+SET[\s\S]*?"state"\s*=|INSERT\s+INTO\s+"Delivery"\s*\([^)]*"state")/g;
  for (const match of text.matchAll(sql)) found.push(match[0].slice(0, 80));
  return found;
}

describe("the writer of Delivery.state", () => {
  const root = process.env.STATE_WRITER_APP ?? path.resolve(import.meta.dirname, "../../app");

  const inWriter = (file: string) => path.relative(root, file).startsWith(WRITER + path.sep);

  it("is the only module of app/ that writes the column", () => {
    const writers = sourceFiles(root)
      .filter((file) => !inWriter(file))
      .filter((file) => stateWrites(readFileSync(file, "utf8")).length > 0)
      .map((file) => path.relative(root, file));
    expect(writers).toEqual([]);
  });

  it("recognises a Prisma write and a raw SQL write of the state", () => {
    expect(
      stateWrites(`await tx.delivery.updateMany({ where: { id }, data: { state: "skipped" } })`),
    ).toHaveLength(1);
    expect(stateWrites(`UPDATE "Delivery" SET "failures" = 0, "state" = 'pending'`)).toHaveLength(
      1,
    );
    expect(
      stateWrites(`prisma.delivery.updateMany({ where: { state: "ready" }, data: {} })`),
    ).toEqual([]);
  });

  it("writes the column itself", () => {
    const writes = sourceFiles(path.join(root, WRITER)).flatMap((file) =>
      stateWrites(readFileSync(file, "utf8")),
    );
    expect(writes.length).toBeGreaterThan(0);
  });

  it("leaves no cast of a state in app/", () => {
    const casts = sourceFiles(root).filter((file) =>
      readFileSync(file, "utf8").includes("as DeliveryState"),
    );
    expect(casts.map((file) => path.relative(root, file))).toEqual([]);
  });
});
