/**
 * A process of the app that needs the shop's Admin API as a worker pass does: `count` clients at
 * once through the production dependencies' `adminFor`, each then reading the shop. Started with
 * the Shopify stand-in preloaded (SHOPIFY_STANDIN_URL), against the test file's DATABASE_URL.
 * Prints "ready", waits for a line on stdin (so several processes start together), then prints
 * one JSON line `{ ok, errors }` and exits.
 *   usage: node --import tsx --import ./sandbox/shopify/preload.ts \
 *            test/support/token-refresh-child.ts <shop> <count>
 */
import { createInterface } from "node:readline";
import prisma from "../../app/db.server";
import { productionDependencies } from "../../app/pipeline/runner.server";

const [shop = "", count = "10"] = process.argv.slice(2);
const SHOP_NAME = "query ShopName { shop { myshopifyDomain } }";

await prisma.$queryRaw`SELECT 1`;
console.log("ready");
await new Promise<void>((resolve) =>
  createInterface({ input: process.stdin }).once("line", () => resolve()),
);

const { adminFor } = productionDependencies();
const results = await Promise.allSettled(
  Array.from({ length: Number(count) }, async () => {
    const admin = await adminFor(shop);
    const body = (await (await admin.graphql(SHOP_NAME)).json()) as {
      data?: { shop?: { myshopifyDomain?: string } };
    };
    if (body.data?.shop?.myshopifyDomain !== shop) throw new Error("The shop was not read.");
  }),
);
const errors = results
  .filter((r): r is PromiseRejectedResult => r.status === "rejected")
  // As the worker would have recorded it (String() of what was thrown).
  .map((r) => (r.reason instanceof Error ? r.reason.message : String(r.reason)));
console.log(JSON.stringify({ ok: results.length - errors.length, errors }));
await prisma.$disconnect();
process.exit(0);
