import fs from "node:fs";

export interface ModelShape {
  name: string;
  /** Scalar columns and whether each is NOT NULL. */
  columns: [string, boolean][];
  /** Each unique key's fields. */
  uniques: string[][];
}

/**
 * The models of a Prisma schema file: scalar fields and unique keys, read from its text (Prisma's
 * runtime DMMF leaves nullability out), for tests that compare migrated databases with it.
 */
export function schemaModels(schemaFile: string): ModelShape[] {
  const text = fs.readFileSync(schemaFile, "utf8");
  const names = [...text.matchAll(/^model (\w+) \{/gm)].map((m) => m[1]!);
  return [...text.matchAll(/^model (\w+) \{\n([\s\S]*?)\n\}/gm)].map(([, name, body]) => {
    const columns: [string, boolean][] = [];
    const uniques: string[][] = [];
    for (const raw of body!.split("\n")) {
      const line = raw.replace(/\/\/.*$/, "").trim();
      const blockUnique = /^@@unique\(\[([^\]]+)\]/.exec(line);
      if (blockUnique) uniques.push(blockUnique[1]!.split(",").map((f) => f.trim()));
      const field = /^(\w+)\s+(\w+)(\[\])?(\?)?/.exec(line);
      // Relation fields (another model's type, or a list) have no column.
      if (!field || names.includes(field[2]!) || field[3]) continue;
      columns.push([field[1]!, field[4] !== "?"]);
      if (/@unique\b/.test(line)) uniques.push([field[1]!]);
    }
    return { name: name!, columns, uniques };
  });
}
