import { seedCashRows } from "../support/cash-rows";
import { describe, expect, it } from "vitest";
import prisma, { databaseProvider } from "../../app/db.server";
import { listAreaOverrides, rememberAreaSpelling } from "../../app/models/area-overrides.server";
import { getDelivery } from "../../app/models/deliveries.server";
import { listDeliveryPage } from "../../app/models/read/delivery-list.server";
import {
  recordDelivery,
  transition,
  StaleDeliveryError,
  type NewDelivery,
} from "../../app/models/delivery-state";
import {
  confirmPickupLocation,
  getPickupLocation,
  listPickupLocations,
} from "../../app/models/pickup-locations.server";
import { deleteShopData } from "../../app/models/privacy.server";
import {
  ensureShopInstalled,
  getShopSettings,
  isShopActive,
  markShopUninstalled,
  saveDeliveryOptions,
} from "../../app/models/shop.server";
import { rememberStatus } from "../../app/models/tracking.server";
import { sqliteFilePath } from "../../app/db/sqlite-path";
import { testDatabase, testDatabaseName } from "../support/database";
import { installShop, shopDomain } from "../support/shopify";

const dialect = testDatabase();
const shop = shopDomain("models");
const other = shopDomain("models-other");

const pickup = {
  locationId: "gid://shopify/Location/1",
  name: "Salmiya store",
  governanceId: 3,
  areaId: 41,
  block: "10",
  street: "Salem Al Mubarak",
  building: "",
  avenue: "",
  floor: "",
  contactName: "Store",
  contactPhone: "22223333",
  latitude: 29.33,
  longitude: 48.07,
};

const delivery = (s: string, n: number): NewDelivery => ({
  shop: s,
  orderId: `gid://shopify/Order/${n}`,
  orderName: `#${1000 + n}`,
  fulfillmentId: `gid://shopify/Fulfillment/${n}`,
  locationId: pickup.locationId,
  source: "webhook",
  state: "pending",
  environment: "sandbox",
  reference: `SHPFY-Models-FO${n}`,
});

/** Every table with a `shop` column, read from the database itself, and its rows for `s`. */
async function rowsPerTable(s: string): Promise<Record<string, number>> {
  const tables =
    dialect === "postgresql"
      ? await prisma.$queryRaw<{ table_name: string }[]>`
          SELECT table_name::text AS table_name FROM information_schema.columns
          WHERE table_schema = 'public' AND column_name = 'shop' ORDER BY table_name`
      : await prisma.$queryRaw<{ table_name: string }[]>`
          SELECT m.name AS table_name FROM sqlite_master m, pragma_table_info(m.name) c
          WHERE m.type = 'table' AND c.name = 'shop' ORDER BY m.name`;
  const parameter = dialect === "postgresql" ? "$1" : "?";
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await prisma.$queryRawUnsafe<{ n: bigint | number }[]>(
      `SELECT count(*) AS n FROM "${table_name}" WHERE "shop" = ${parameter}`,
      s,
    );
    counts[table_name] = Number(row!.n);
  }
  return counts;
}

describe(`the models (${testDatabaseName()})`, () => {
  it("run on the database of this test file", async () => {
    const url = process.env.DATABASE_URL!;
    expect(databaseProvider()).toBe(dialect);
    if (dialect === "postgresql") {
      const [row] = await prisma.$queryRaw<{ db: string }[]>`SELECT current_database()::text AS db`;
      expect(url.endsWith(`/${row!.db}`)).toBe(true);
    } else {
      const files = await prisma.$queryRaw<{ name: string; file: string }[]>`PRAGMA database_list`;
      expect(files.find((f) => f.name === "main")?.file).toBe(sqliteFilePath(url));
    }
  });

  it("keep each shop's settings, pickup locations and spellings apart", async () => {
    await ensureShopInstalled(shop, "read_orders");
    await ensureShopInstalled(other);
    await saveDeliveryOptions(shop, {
      autoSend: true,
      paymentCodeCod: "COD",
      paymentCodePrepaid: null,
      preparationMinutes: 60,
      notifyCustomer: false,
    });
    await confirmPickupLocation(shop, pickup, new Date("2026-11-22T08:00:00.000Z"));
    await confirmPickupLocation(shop, { ...pickup, name: "Salmiya (renamed)" });
    await rememberAreaSpelling(shop, "salmya", { governorate: "hawalli", area: "salmiya" });

    const settings = await getShopSettings(shop);
    expect(settings).toMatchObject({
      scopes: "read_orders",
      autoSend: true,
      paymentCodeCod: "COD",
      preparationMinutes: 60,
      notifyCustomer: false,
    });
    expect((await getShopSettings(other))?.autoSend).toBe(false);
    expect((await listPickupLocations(shop)).map((p) => p.name)).toEqual(["Salmiya (renamed)"]);
    expect(await getPickupLocation(other, pickup.locationId)).toBeNull();
    expect((await getPickupLocation(shop, pickup.locationId))?.latitude).toBe(29.33);
    expect(await listAreaOverrides(shop)).toEqual([
      { key: "salmya", governorate: "hawalli", area: "salmiya" },
    ]);
    expect(await listAreaOverrides(other)).toEqual([]);

    await markShopUninstalled(shop, new Date("2026-11-22T09:00:00.000Z"));
    expect(await isShopActive(shop)).toBe(false);
    expect(await isShopActive(other)).toBe(true);
    expect((await getShopSettings(shop))?.uninstalledAt).toEqual(
      new Date("2026-11-22T09:00:00.000Z"),
    );
  });

  it("refuse a courier environment outside the closed set, naming it", async () => {
    const staging = shopDomain("models-staging");
    await ensureShopInstalled(staging);
    await prisma.shopSettings.update({
      where: { shop: staging },
      data: { courierEnvironment: "staging" },
    });
    await expect(getShopSettings(staging)).rejects.toThrow(
      'Unknown courier environment "staging" in the database.',
    );
  });

  it("record a delivery once per fulfillment", async () => {
    await ensureShopInstalled(shop);
    const at = new Date("2026-01-05T10:00:00.000Z");
    const first = await recordDelivery(delivery(shop, 1), at);
    // The unique (shop, fulfillment id), once met, reads back the existing row.
    const again = await recordDelivery(delivery(shop, 1), at);
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, delivery: { id: first.delivery.id } });
    expect(first.delivery.nextAttemptAt).toEqual(at);
    // Another shop's delivery of the same fulfillment id is its own.
    const others = await recordDelivery(delivery(other, 1));
    expect(others.created).toBe(true);
  });

  it("move a delivery only from the state it is in", async () => {
    await ensureShopInstalled(shop);
    const first = await recordDelivery(delivery(shop, 1));
    await transition({
      shop,
      id: first.delivery.id,
      from: "pending",
      to: "ready",
      event: { kind: "prepared", message: "Request built.", data: { n: 1 } },
    });
    await expect(
      transition({
        shop,
        id: first.delivery.id,
        from: "pending",
        to: "ready",
        event: { kind: "prepared", message: "Again." },
      }),
    ).rejects.toBeInstanceOf(StaleDeliveryError);

    const read = await getDelivery(shop, first.delivery.id);
    expect(read?.state).toBe("ready");
    expect(read?.events.map((e) => e.kind)).toEqual(["received", "prepared"]);
  });

  it("let no other shop move or read a delivery", async () => {
    await ensureShopInstalled(shop);
    const first = await recordDelivery(delivery(shop, 1));
    await expect(
      transition({
        shop: other,
        id: first.delivery.id,
        from: "pending",
        to: "ready",
        event: { kind: "x", message: "x" },
      }),
    ).rejects.toBeInstanceOf(StaleDeliveryError);
    expect(await getDelivery(other, first.delivery.id)).toBeNull();
    expect((await getDelivery(shop, first.delivery.id))?.state).toBe("pending");
  });

  it("list and search only the shop's own deliveries", async () => {
    await ensureShopInstalled(shop);
    await recordDelivery(delivery(shop, 1));
    await recordDelivery(delivery(other, 1));
    await recordDelivery(delivery(shop, 2));
    expect((await listDeliveryPage({ shop })).rows).toHaveLength(2);
    const found = await listDeliveryPage({ shop, search: "#1002" });
    expect(found.rows.map((d) => d.orderName)).toEqual(["#1002"]);
    expect((await listDeliveryPage({ shop: other })).rows).toHaveLength(1);
  });

  it("delete every row of the shop in every table at shop/redact, and nothing of another shop", async () => {
    for (const s of [shop, other]) {
      await installShop(s);
      await ensureShopInstalled(s);
      await confirmPickupLocation(s, pickup);
      await rememberAreaSpelling(s, "salmya", { governorate: "hawalli", area: "salmiya" });
      await rememberStatus(
        s,
        "DLV",
        "Delivered",
        { state: "delivered", shopify: "DELIVERED" },
        null,
      );
      await recordDelivery(delivery(s, 5));
      await prisma.processedWebhook.create({ data: { shop: s, webhookId: "w1", topic: "t" } });
      await prisma.courierCircuit.create({
        data: { shop: s, environment: "sandbox", circuit: "other", state: "open", failures: 5 },
      });
      await prisma.staffLanguage.create({ data: { shop: s, userId: "1", language: "ar" } });
      // Checkout rates (issue 28): settings, a price and a day's count.
      await prisma.checkoutRateSettings.create({ data: { shop: s, callbackToken: `token-${s}` } });
      await prisma.areaPrice.create({
        data: {
          shop: s,
          environment: "sandbox",
          originAreaId: 1,
          areaId: 2,
          governanceId: 3,
          bandKg: 5,
          priceFils: 1_250,
          fetchedAt: new Date(),
        },
      });
      await prisma.rateRequestTally.create({
        data: { shop: s, day: "2026-11-29", area: "Salmiya", outcome: "priced", count: 3 },
      });
      await prisma.fulfillmentCheck.create({
        data: {
          shop: s,
          checkedUntil: new Date(),
          recoverFrom: new Date(),
          nextCheckAt: new Date(),
        },
      });
      await prisma.courierMasterData.create({
        data: {
          shop: s,
          environment: "sandbox",
          governances: "[]",
          areas: "[]",
          fetchedAt: new Date(),
        },
      });
      await prisma.complianceRequest.create({
        data: { shop: s, topic: "customers/redact", webhookId: "c1" },
      });
      await seedCashRows(prisma, s);
    }
    const before = await rowsPerTable(shop);
    // Every table with a shop column has a row to delete, so the check below means something.
    expect(Object.entries(before).filter(([, n]) => n === 0)).toEqual([]);

    const deleted = await deleteShopData(shop);
    expect(deleted).toEqual(before);
    expect(Object.values(await rowsPerTable(shop)).every((n) => n === 0)).toBe(true);
    expect(await rowsPerTable(other)).toEqual(before);
  });
});
