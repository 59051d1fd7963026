/**
 * A SQLite file locked by another process (issue 24, ADR 0053): the built server on a scratch
 * SQLite file with its in-process worker on, signed `fulfillments/create` webhooks at 20 a second
 * and a health check every 250 ms, while this process holds the file's write lock for 15 s (as a
 * backup or a `sqlite3` shell would). Figures: the slowest webhook answer (Shopify gives up after
 * 5 s), the slowest health check, how the webhooks were answered, and acknowledged webhooks
 * without a row once the lock is gone. BENCH_BEFORE_REF=<ref> also runs that commit in the run.
 */
import path from "node:path";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import Database from "better-sqlite3";
import { ensureBuilt, startBuiltServer } from "../support/app-server";
import { buildBefore } from "../support/before-tree";
import type { Log } from "../support/fault-courier";
import { WEBHOOK_PATH, webhookSource } from "../support/fulfillment-webhooks";
import { freePort, migrateDatabase, ROOT, scratchDir, sleep } from "../support/scratch";

const LOCK_SECONDS = 15;
const RATE = 20;
const SHOP = "locked-shop.myshopify.com";

interface Answer {
  fulfillmentId: string;
  status: number;
  ms: number;
}

async function timedFetch(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

async function measureTree(root: string, name: string, log: Log) {
  const scratch = scratchDir(`bench-locked-${name.replace(/[^a-z0-9]/gi, "")}`);
  try {
    const databaseUrl = migrateDatabase(path.join(scratch.dir, "locked.sqlite"));
    const file = databaseUrl.slice("file:".length);
    const seed = new Database(file);
    seed
      .prepare(`INSERT INTO "ShopSettings" ("id", "shop", "updatedAt") VALUES (?, ?, ?)`)
      .run("locked-settings", SHOP, Date.now());
    seed.close();
    const server = await startBuiltServer({
      root,
      port: await freePort(),
      logFile: path.join(scratch.dir, "server.log"),
      env: { DATABASE_URL: databaseUrl, DELIVERY_WORKER: "on" },
    });
    try {
      const source = webhookSource({
        shop: SHOP,
        secret: API_SECRET_KEY,
        duplicateShare: 0,
        firstFulfillment: 4_000_000,
      });
      const send = (): Promise<Answer> => {
        const webhook = source.next();
        return timedFetch(`${server.url}${WEBHOOK_PATH}`, {
          method: "POST",
          headers: webhook.headers,
          body: webhook.body,
        }).then((answer) => ({ ...answer, fulfillmentId: webhook.fulfillmentId }));
      };
      await send();
      const holder = new Database(file);
      holder.exec("BEGIN IMMEDIATE");
      holder.prepare(`UPDATE "ShopSettings" SET "updatedAt" = "updatedAt"`).run();
      const webhooks: Promise<Answer>[] = [];
      const checks: Promise<{ status: number; ms: number }>[] = [];
      const started = performance.now();
      try {
        for (let i = 0; performance.now() - started < LOCK_SECONDS * 1000; i += 1) {
          webhooks.push(send());
          if (i % 5 === 0) checks.push(timedFetch(`${server.url}/healthz`));
          const due = started + ((i + 1) * 1000) / RATE;
          await sleep(Math.max(0, due - performance.now()));
        }
      } finally {
        holder.exec("COMMIT");
        holder.close();
      }
      const answers = await Promise.all(webhooks);
      const health = await Promise.all(checks);
      await sleep(500);
      const reader = new Database(file, { readonly: true });
      const recorded = new Set(
        (
          reader.prepare(`SELECT "fulfillmentId" FROM "Delivery"`).all() as {
            fulfillmentId: string;
          }[]
        ).map((r) => r.fulfillmentId),
      );
      reader.close();
      const byStatus = new Map<number, number>();
      for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
      const figures = {
        webhookMaxMs: Math.round(Math.max(...answers.map((a) => a.ms))),
        healthMaxMs: Math.round(Math.max(...health.map((h) => h.ms))),
        lost: answers.filter((a) => a.status === 200 && !recorded.has(a.fulfillmentId)).length,
        other: answers.filter((a) => a.status !== 200 && a.status !== 503).length,
      };
      log(
        `${name.padEnd(20)} ${answers.length} webhooks during a ${LOCK_SECONDS} s lock: ${[
          ...byStatus,
        ]
          .map(([status, n]) => `${n} × ${status || "no answer"}`)
          .join(
            ", ",
          )}; slowest ${figures.webhookMaxMs} ms; health check slowest ${figures.healthMaxMs} ms; ${figures.lost} acknowledged without a row`,
      );
      return figures;
    } finally {
      await server.stop();
    }
  } finally {
    scratch.remove();
  }
}

export async function run(log: Log): Promise<Record<string, number>> {
  const scratch = scratchDir("bench-locked-before");
  try {
    const build = ensureBuilt(scratch.dir);
    log(
      `this tree's build ${build.state}; webhooks at ${RATE}/s while the file is locked ${LOCK_SECONDS} s`,
    );
    const ref = process.env.BENCH_BEFORE_REF;
    const before = ref
      ? await measureTree(buildBefore(ref, scratch.dir), `before (${ref})`, log)
      : undefined;
    const after = await measureTree(ROOT, "this tree", log);
    return {
      lockedDbWebhookMaxMs: after.webhookMaxMs,
      lockedDbHealthMaxMs: after.healthMaxMs,
      lockedDbAcknowledgedLost: after.lost,
      lockedDbAnswersNot200Or503: after.other,
      ...(before
        ? {
            beforeLockedDbWebhookMaxMs: before.webhookMaxMs,
            beforeLockedDbHealthMaxMs: before.healthMaxMs,
          }
        : {}),
    };
  } finally {
    scratch.remove();
  }
}
