import { randomUUID } from "node:crypto";
import path from "node:path";
import { migrateDatabase, scratchDir, switchToWal } from "./scratch";

/**
 * What one webhook costs the server's only thread, operation by operation, in process: the
 * queries the acknowledgement makes today through Prisma, and the same work done with raw SQL and
 * with group commit (one transaction for the rows of many concurrent webhooks). Runs against its
 * own scratch database; the app's environment is set here, so import this module last.
 */
export interface IntakeCost {
  name: string;
  wallUs: number;
  cpuUs: number;
}

const LOCATION = "gid://shopify/Location/701";

export async function measureIntakeCosts(options: { wal: boolean; calls?: number }) {
  const calls = options.calls ?? 400;
  const scratch = scratchDir("bench-intake-costs");
  try {
    const databaseFile = path.join(scratch.dir, "costs.sqlite");
    const databaseUrl = migrateDatabase(databaseFile);
    if (options.wal) switchToWal(databaseFile);
    Object.assign(process.env, {
      // "test" only quiets the Shopify library's start-up line; the database code is the same.
      NODE_ENV: "test",
      SHOPIFY_API_KEY: "bench",
      SHOPIFY_API_SECRET: "bench",
      SHOPIFY_APP_URL: "http://127.0.0.1:9",
      SCOPES: "read_orders",
      ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 9).toString("base64")}`,
      DATABASE_URL: databaseUrl,
      DELIVERY_WORKER: "off",
    });
    const { default: prisma } = await import("../../app/db.server");
    const { Prisma } = await import("@prisma/client");
    const { fulfillmentWebhook, receiveFulfillment } =
      await import("../../app/pipeline/intake.server");
    const { deliveryReference } = await import("../../app/domain/request");

    const shop = "costs.myshopify.com";
    await prisma.session.create({
      data: { id: `offline_${shop}`, shop, state: "", accessToken: "t" },
    });
    await prisma.shopSettings.create({
      data: { shop, autoSend: true, courierApiKeySealed: "bench", paymentCodeCod: "C" },
    });
    await prisma.pickupLocation.create({
      data: {
        shop,
        locationId: LOCATION,
        name: "Salmiya store",
        governanceId: 1,
        areaId: 1,
        block: "10",
        street: "Salem Al Mubarak",
        contactName: "Salmiya store",
        contactPhone: "22223333",
        confirmedAt: new Date(),
      },
    });

    let fulfillment = 1_000_000;
    const nextPayload = () => {
      fulfillment += 1;
      return fulfillmentWebhook.parse({
        id: fulfillment,
        admin_graphql_api_id: `gid://shopify/Fulfillment/${fulfillment}`,
        order_id: fulfillment + 7,
        location_id: 701,
        name: `#${fulfillment}.1`,
        status: "success",
        destination: { country_code: "KW" },
      });
    };
    // The adapter's DateTime text, so raw rows read back like Prisma's own.
    const sqliteTime = (at: Date) => at.toISOString().replace("Z", "+00:00");
    const rawRow = (fulfillmentId: string) => {
      const id = randomUUID();
      const at = sqliteTime(new Date());
      return {
        id,
        delivery: Prisma.sql`(${id}, ${shop}, ${"gid://shopify/Order/1"}, ${"#1"}, ${fulfillmentId},
          ${LOCATION}, 'webhook', 'pending', 'sandbox', ${deliveryReference(shop, fulfillmentId)}, 0,
          ${at}, ${at}, ${at})`,
        event: Prisma.sql`(${randomUUID()}, ${shop}, ${id}, ${at}, 'received',
          'Fulfillment received from Shopify (webhook).')`,
      };
    };
    const insertRows = (rows: ReturnType<typeof rawRow>[]) =>
      prisma.$transaction(async (tx) => {
        const created = await tx.$queryRaw<{ id: string }[]>`
          INSERT INTO Delivery (id, shop, orderId, orderName, fulfillmentId, locationId, source,
            state, environment, reference, attempts, nextAttemptAt, createdAt, updatedAt)
          VALUES ${Prisma.join(rows.map((r) => r.delivery))}
          ON CONFLICT DO NOTHING RETURNING id`;
        const ids = new Set(created.map((r) => r.id));
        const events = rows.filter((r) => ids.has(r.id)).map((r) => r.event);
        if (events.length > 0) {
          await tx.$executeRaw`INSERT INTO DeliveryEvent (id, shop, deliveryId, at, kind, message)
            VALUES ${Prisma.join(events)}`;
        }
      });

    const costs: IntakeCost[] = [];
    const time = async (name: string, work: () => Promise<unknown>, perCall = 1) => {
      for (let i = 0; i < 50; i++) await work();
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < calls; i++) await work();
      const wallUs = ((performance.now() - started) * 1000) / (calls * perCall);
      const used = process.cpuUsage(cpu);
      const cpuUs = (used.user + used.system) / (calls * perCall);
      costs.push({ name, wallUs: Math.round(wallUs), cpuUs: Math.round(cpuUs) });
    };

    await time("Prisma: Session by id (authenticate.webhook)", () =>
      prisma.session.findUnique({ where: { id: `offline_${shop}` } }),
    );
    await time("Prisma: ShopSettings by shop", () =>
      prisma.shopSettings.findUnique({ where: { shop } }),
    );
    await time("Prisma: PickupLocation by shop and location", () =>
      prisma.pickupLocation.findUnique({
        where: { shop_locationId: { shop, locationId: LOCATION } },
      }),
    );
    await time("Prisma: Delivery create with its event", () => {
      const payload = nextPayload();
      return prisma.delivery.create({
        data: {
          shop,
          orderId: "gid://shopify/Order/1",
          fulfillmentId: payload.admin_graphql_api_id,
          locationId: LOCATION,
          source: "webhook",
          state: "pending",
          environment: "sandbox",
          reference: deliveryReference(shop, payload.admin_graphql_api_id),
          nextAttemptAt: new Date(),
          events: { create: { shop, kind: "received", message: "Fulfillment received." } },
        },
      });
    });
    await time("receiveFulfillment, one at a time (a durable commit each)", () =>
      receiveFulfillment(shop, nextPayload()),
    );
    const concurrent = 32;
    await time(
      `receiveFulfillment, ${concurrent} at once (one group commit, per webhook)`,
      () =>
        Promise.all(
          Array.from({ length: concurrent }, () => receiveFulfillment(shop, nextPayload())),
        ),
      concurrent,
    );
    await time(
      "raw: SELECT 1 (a Prisma round trip, no query compiler)",
      () => prisma.$queryRaw`SELECT 1`,
    );
    await time(
      "raw: settings and pickup in one SELECT",
      () =>
        prisma.$queryRaw`SELECT s.autoSend, s.courierApiKeySealed IS NOT NULL AS hasKey,
        s.uninstalledAt, s.courierEnvironment, p.id AS pickup
        FROM ShopSettings s LEFT JOIN PickupLocation p ON p.shop = s.shop AND p.locationId = ${LOCATION}
        WHERE s.shop = ${shop}`,
    );
    await time("raw: INSERT … ON CONFLICT DO NOTHING + event, one transaction", () =>
      insertRows([rawRow(nextPayload().admin_graphql_api_id)]),
    );
    const batch = 32;
    await time(
      `raw, group commit: ${batch} webhooks' rows in one transaction (per webhook)`,
      () =>
        insertRows(Array.from({ length: batch }, () => rawRow(nextPayload().admin_graphql_api_id))),
      batch,
    );
    await prisma.$disconnect();
    return costs;
  } finally {
    scratch.remove();
  }
}
