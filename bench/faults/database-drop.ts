/**
 * A PostgreSQL restart or failover under load (issue 24): the built server on a scratch
 * PostgreSQL database (DELIVERY_WORKER=off, as a web instance of a PostgreSQL deployment), signed
 * `fulfillments/create` webhooks at 40 a second for 10 s, and four times meanwhile, just after a
 * burst of 40 at once (so that some are mid-transaction), as superuser,
 * `pg_terminate_backend` of every connection to the app's database. Figures: whether the process
 * ended, webhooks acknowledged (200) without a row, answers other than 200, and how long after
 * the last drop it took to answer a webhook again. BENCH_BEFORE_REF=<ref> also runs that commit,
 * built in a scratch copy, in the same run.
 */
import path from "node:path";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import pg from "pg";
import { migratePostgres } from "../../scripts/pg-migrate";
import { ensureBuilt, startBuiltServer } from "../support/app-server";
import { buildBefore } from "../support/before-tree";
import type { Log } from "../support/fault-courier";
import { WEBHOOK_PATH, webhookSource } from "../support/fulfillment-webhooks";
import { freePort, ROOT, scratchDir, sleep } from "../support/scratch";

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const RATE = 40;
const SECONDS = 10;
const DROPS_AT_S = [2, 4, 6, 8];
/** Webhooks sent at once just before each drop, so that some are mid-transaction when it comes. */
const BURST = 40;
const SHOP = "drop-shop.myshopify.com";

interface TreeFigures {
  exited: boolean;
  sent: number;
  acknowledged: number;
  lost: number;
  non2xx: number;
  connectionsEnded: number;
  recoveryMs: number;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>, url = ADMIN_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function measureTree(root: string, name: string, log: Log): Promise<TreeFigures> {
  const database = `bench_drop_${process.pid}_${name.replace(/[^a-z0-9]/gi, "").toLowerCase()}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  await admin((c) => c.query(`CREATE DATABASE "${database}"`));
  const scratch = scratchDir(`bench-drop-${database}`);
  try {
    await migratePostgres(url.toString());
    await admin(
      (c) =>
        c.query(`INSERT INTO "ShopSettings" ("id", "shop", "updatedAt") VALUES ($1, $2, now())`, [
          "drop-settings",
          SHOP,
        ]),
      url.toString(),
    );
    const server = await startBuiltServer({
      root,
      port: await freePort(),
      logFile: path.join(scratch.dir, "server.log"),
      env: { DATABASE_URL: url.toString(), DELIVERY_WORKER: "off" },
    });
    let exited = false;
    try {
      const source = webhookSource({
        shop: SHOP,
        secret: API_SECRET_KEY,
        duplicateShare: 0,
        firstFulfillment: 3_000_000,
      });
      const send = () => {
        const webhook = source.next();
        return fetch(`${server.url}${WEBHOOK_PATH}`, {
          method: "POST",
          headers: webhook.headers,
          body: webhook.body,
          signal: AbortSignal.timeout(10_000),
        }).then(
          (r) => ({
            fulfillmentId: webhook.fulfillmentId,
            status: r.status,
            at: performance.now(),
          }),
          () => ({ fulfillmentId: webhook.fulfillmentId, status: 0, at: performance.now() }),
        );
      };
      const answers: Promise<{ fulfillmentId: string; status: number; at: number }>[] = [];
      const started = performance.now();
      const drops = [...DROPS_AT_S];
      let connectionsEnded = 0;
      let lastDropAt = 0;
      for (let i = 0; i < RATE * SECONDS; i += 1) {
        const due = started + (i * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        if (drops.length > 0 && performance.now() - started >= drops[0]! * 1000) {
          drops.shift();
          for (let b = 0; b < BURST; b += 1) answers.push(send());
          await sleep(5);
          connectionsEnded += await admin(async (c) => {
            const { rowCount } = await c.query(
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
              [database],
            );
            return rowCount ?? 0;
          });
          lastDropAt = performance.now();
        }
        answers.push(send());
      }
      const settled = await Promise.all(answers);
      exited =
        (await fetch(`${server.url}/healthz`).then(
          () => false,
          () => true,
        )) && true;
      const recorded = await admin(
        async (c) =>
          new Set(
            (
              await c.query<{ fulfillmentId: string }>(
                `SELECT "fulfillmentId" FROM "Delivery" WHERE "shop" = $1`,
                [SHOP],
              )
            ).rows.map((r) => r.fulfillmentId),
          ),
        url.toString(),
      );
      const acknowledged = settled.filter((a) => a.status === 200);
      const firstOkAfterDrop = settled
        .filter((a) => a.status === 200 && a.at > lastDropAt)
        .reduce((min, a) => Math.min(min, a.at), Number.POSITIVE_INFINITY);
      const figures: TreeFigures = {
        exited,
        sent: settled.length,
        acknowledged: acknowledged.length,
        lost: acknowledged.filter((a) => !recorded.has(a.fulfillmentId)).length,
        non2xx: settled.length - acknowledged.length,
        connectionsEnded,
        recoveryMs: Number.isFinite(firstOkAfterDrop)
          ? Math.round(firstOkAfterDrop - lastDropAt)
          : -1,
      };
      log(
        `${name.padEnd(20)} ${figures.sent} webhooks, ${figures.connectionsEnded} connections ended in ${DROPS_AT_S.length} drops: ${figures.acknowledged} acknowledged, ${figures.lost} of them lost, ${figures.non2xx} not 200; process ${exited ? "EXITED" : "alive"}; answering again ${figures.recoveryMs} ms after the last drop`,
      );
      if (exited)
        log(
          server
            .log()
            .split("\n")
            .filter((l) => /Error|error/.test(l))
            .slice(0, 3)
            .join(" / "),
        );
      return figures;
    } finally {
      await server.stop();
    }
  } finally {
    scratch.remove();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  }
}

export async function run(log: Log): Promise<Record<string, number>> {
  const scratch = scratchDir("bench-drop-before");
  try {
    const build = ensureBuilt(scratch.dir);
    log(
      `this tree's build ${build.state}; ${RATE} webhooks/s for ${SECONDS} s, drops at ${DROPS_AT_S.join(" s, ")} s`,
    );
    const ref = process.env.BENCH_BEFORE_REF;
    const before = ref
      ? await measureTree(buildBefore(ref, scratch.dir), `before (${ref})`, log)
      : undefined;
    const after = await measureTree(ROOT, "this tree", log);
    return {
      webProcessExitsOnDbDrop: after.exited ? 1 : 0,
      acknowledgedLostOnDbDrop: after.lost,
      dbDropNon2xx: after.non2xx,
      dbDropRecoveryMs: after.recoveryMs,
      ...(before
        ? {
            beforeWebProcessExitsOnDbDrop: before.exited ? 1 : 0,
            beforeDbDropNon2xx: before.non2xx,
          }
        : {}),
    };
  } finally {
    scratch.remove();
  }
}
