/**
 * One delivery worker in a process of its own, for test/pipeline/process-kill.test.ts: the app's
 * own runDueDeliveries against DATABASE_URL (the test file's SQLite database, in WAL, shared with
 * the test process) and the courier sandbox at COURIER_SANDBOX_URL. Prints "ready" once the
 * database answers, then runs one pass and prints "done". The test kills it mid-create.
 *   usage: tsx test/support/delivery-worker-child.ts <owner>
 */
import { createCourierClient } from "../../app/courier";
import prisma from "../../app/db.server";
import { runDueDeliveries } from "../../app/deliveries/worker.server";
import { readCourierApiKey } from "../../app/models/courier-account.server";
import { courierBaseUrl } from "../../app/services/courier-connection.server";
import { trackingLink } from "../../app/deliveries/tracking-link";

const [owner = "child-worker"] = process.argv.slice(2);
await prisma.$queryRaw`SELECT 1`;
console.log("ready");
await runDueDeliveries(
  {
    owner,
    courierFor: async (shop, environment) => {
      const apiKey = await readCourierApiKey(shop);
      const baseUrl = courierBaseUrl(environment);
      return apiKey && baseUrl ? createCourierClient({ baseUrl, apiKey, timeoutMs: 60_000 }) : null;
    },
    adminFor: () => Promise.reject(new Error("The child worker has no Admin API.")),
    trackingUrl: (delivery) => trackingLink("https://app.example", delivery),
    courierDisplayName: "Test Courier",
    courierTimeoutMs: 60_000,
  },
  10,
);
console.log("done");
await prisma.$disconnect();
