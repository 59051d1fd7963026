/**
 * Generates the PostgreSQL Prisma client (node_modules/.prisma/client-pg) offline, then points its
 * runtime at @prisma/client's own. A client generated to a custom output carries a copy of the
 * runtime, whose error classes and `Prisma.sql` are then distinct from the ones the app imports
 * from @prisma/client: `error instanceof Prisma.PrismaClientKnownRequestError` (a unique
 * violation, in the models and in Shopify's session storage) would be false on PostgreSQL. Both
 * copies come from the same Prisma version; this checks that before linking (ADR 0009).
 *   usage: tsx scripts/pg-generate.ts   (part of `npm run setup`)
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLIENT_DIR = path.join(ROOT, "node_modules", ".prisma", "client-pg");
const RUNTIME = path.join(CLIENT_DIR, "runtime", "client.js");
const SHARED_RUNTIME = path.join(ROOT, "node_modules", "@prisma", "client", "runtime", "client.js");
const LINKED = "// Linked by scripts/pg-generate.ts: one runtime for both Prisma clients.\n";

execFileSync(
  path.join(ROOT, "node_modules", ".bin", "prisma"),
  ["generate", "--config", path.join("prisma", "postgresql", "prisma.config.ts")],
  { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] },
);

// The generated copy differs from the package's file by its "generated" banner only.
const withoutBanner = (text: string) => text.slice(text.indexOf('"use strict";'));
const copy = fs.readFileSync(RUNTIME, "utf8");
const shared = fs.readFileSync(SHARED_RUNTIME, "utf8");
if (withoutBanner(copy) !== withoutBanner(shared)) {
  throw new Error(
    "The PostgreSQL client's runtime is not @prisma/client's (different Prisma versions?): keep prisma and @prisma/client at the same version.",
  );
}
fs.writeFileSync(
  RUNTIME,
  `${LINKED}module.exports = require("@prisma/client/runtime/client.js");\n`,
);
console.log("Generated the PostgreSQL Prisma client (node_modules/.prisma/client-pg).");
