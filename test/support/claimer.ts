/**
 * One claiming process for test/both-databases/claims.test.ts: the app's own claimDueDeliveries,
 * on its own PrismaClient and connection, against DATABASE_URL (SQLite or PostgreSQL). Prints
 * "ready" once connected, waits for a line on stdin, then claims `limit` rows at a time until two
 * claims in a row find nothing, and prints the ids it leased as one JSON line.
 *   usage: tsx test/support/claimer.ts <owner> <limit>
 */
import readline from "node:readline";
import prisma from "../../app/db.server";
import { claimDueDeliveries } from "../../app/models/deliveries.server";

const [owner = "claimer", limit = "5"] = process.argv.slice(2);
await prisma.$queryRaw`SELECT 1`;
console.log("ready");
const lines = readline.createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once("line", () => resolve()));
lines.close();

const claimed: string[] = [];
let empty = 0;
while (empty < 2) {
  const rows = await claimDueDeliveries(owner, Number(limit), 60_000);
  if (rows.length === 0) empty += 1;
  else empty = 0;
  claimed.push(...rows.map((r) => r.id));
}
console.log(JSON.stringify({ owner, claimed }));
await prisma.$disconnect();
