/**
 * A delivery worker in a process of its own, for tests that kill or pause it: the app's own
 * runDueDeliveries against DATABASE_URL (the test file's SQLite database in WAL, or its PostgreSQL
 * database) and the courier sandbox at COURIER_SANDBOX_URL. Prints "ready <pid>" once the database
 * answers, runs its passes, and prints "done".
 *   usage: node --import tsx test/support/delivery-worker-child.ts <owner> [options]
 *     --pause before-send   stops itself (SIGSTOP) as the worker calls the courier to create
 *     --pause in-send       stops itself inside the HTTP call, after the worker's last check
 *     --pause before-tracking  stops itself as the worker, a create answered, asks for the Admin
 *                           API to put the tracking number on Shopify
 *     --lease-ms N          the worker's lease (default: derived from the timeout)
 *     --timeout-ms N        the courier client's time limit (default 60 000)
 *     --passes N            passes to run (default 1)
 *     --reconcile-delay-ms N
 *     --shopify URL         the Admin API is the Shopify stand-in at URL (default: none)
 *     --now-offset-ms N     the worker's clock is real time plus N (the test's clock moved on)
 *     --until-idle          runs passes until one finds nothing due (at most --passes, default 50)
 * Each pause happens once; the test sends SIGCONT.
 */
import { createCourierClient, type CourierClient } from "../../app/courier";
import prisma from "../../app/db.server";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
import { readCourierApiKey } from "../../app/models/courier-account.server";
import { courierBaseUrl } from "../../app/services/courier-connection.server";
import { trackingLink } from "../../app/domain/tracking-link";
import { unauthenticated } from "../../app/shopify.server";
import { routeShopifyToStandIn } from "../../sandbox/shopify/redirect";

const [owner = "child-worker", ...args] = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const number = (name: string) => (option(name) === undefined ? undefined : Number(option(name)));
const pause = option("--pause");
const timeoutMs = number("--timeout-ms") ?? 60_000;

let paused = false;
/** Stops this very process, as a debugger, the kernel or an orchestrator would. */
function stopHere(where: string) {
  if (paused) return;
  paused = true;
  console.log(`paused ${where}`);
  process.kill(process.pid, "SIGSTOP");
  console.log(`resumed ${where}`);
}

const CREATES = /\/api\/orders\/create(-bulk)?$/;
const pausingFetch: typeof fetch = (input, init) => {
  if (pause === "in-send" && CREATES.test(new URL(String(input)).pathname)) stopHere("in-send");
  return fetch(input, init);
};

/** A create was answered: the worker's next use of the Admin API is for the tracking number. */
let created = false;

function pausingClient(client: CourierClient): CourierClient {
  if (pause === "before-tracking") {
    return {
      ...client,
      createOrder: (input, options) =>
        client.createOrder(input, options).finally(() => (created = true)),
      createBulk: (inputs, options) =>
        client.createBulk(inputs, options).finally(() => (created = true)),
    };
  }
  if (pause !== "before-send") return client;
  return {
    ...client,
    createOrder: (input, options) => {
      stopHere("before-send");
      return client.createOrder(input, options);
    },
    createBulk: (inputs, options) => {
      stopHere("before-send");
      return client.createBulk(inputs, options);
    },
  };
}

const shopify = option("--shopify");
if (shopify) routeShopifyToStandIn(shopify);
const untilIdle = args.includes("--until-idle");
const nowOffsetMs = number("--now-offset-ms") ?? 0;

await prisma.$queryRaw`SELECT 1`;
console.log(`ready ${process.pid}`);
for (let pass = 0; pass < (number("--passes") ?? (untilIdle ? 50 : 1)); pass += 1) {
  const handled = await runDueDeliveries(
    {
      owner,
      courierFor: async (shop, environment) => {
        const apiKey = await readCourierApiKey(shop);
        const baseUrl = courierBaseUrl(environment);
        return apiKey && baseUrl
          ? pausingClient(
              createCourierClient({
                baseUrl,
                apiKey,
                timeoutMs,
                retryBaseDelayMs: 1,
                fetch: pausingFetch,
              }),
            )
          : null;
      },
      adminFor: shopify
        ? async (shop) => {
            if (pause === "before-tracking" && created) stopHere("before-tracking");
            return (await unauthenticated.admin(shop)).admin;
          }
        : () => Promise.reject(new Error("The child worker has no Admin API.")),
      trackingUrl: (delivery) => trackingLink("https://app.example", delivery),
      courierDisplayName: "Test Courier",
      courierTimeoutMs: timeoutMs,
      leaseMs: number("--lease-ms"),
      reconcileDelayMs: number("--reconcile-delay-ms"),
      ...(nowOffsetMs ? { now: () => new Date(Date.now() + nowOffsetMs) } : {}),
    },
    10,
  );
  if (untilIdle && handled === 0) break;
}
console.log("done");
await prisma.$disconnect();
process.exit(0);
