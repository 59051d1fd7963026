import { seedCashRows } from "../support/cash-rows";
import { describe, expect, it } from "vitest";
import prisma, { databaseProvider } from "../../app/db.server";
import { listAreaOverrides, rememberAreaSpelling } from "../../app/models/area-overrides.server";
import {
  getDelivery,
  listDeliveries,
  recordDelivery,
  transition,
  StaleDeliveryError,
  type NewDelivery,
} from "../../app/models/deliveries.server";
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
import { installShop, shopDomain } from "../support/shopify";
import { TEST_DATABASE_URL } from "./setup/file";

const shop = shopDomain("pg-models");
const other = shopDomain("pg-models-other");

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
  const tables = await prisma.$queryRaw<{ table_name: string }[]>`
    SELECT table_name::text AS table_name FROM information_schema.columns
    WHERE table_schema = 'public' AND column_name = 'shop' ORDER BY table_name`;
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM "${table_name}" WHERE "shop" = $1`,
      s,
    );
    counts[table_name] = Number(row!.n);
  }
  return counts;
}

describe("the models on PostgreSQL", () => {
  it("runs on the PostgreSQL database of this test file", async () => {
    expect(databaseProvider()).toBe("postgresql");
    const [row] = await prisma.$queryRaw<{ db: string }[]>`SELECT current_database()::text AS db`;
    expect(TEST_DATABASE_URL.endsWith(`/${row!.db}`)).toBe(true);
  });

  it("keeps each shop's settings, pickup locations and spellings apart", async () => {
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

  it("records a delivery once per fulfillment, moves it only from its current state, lists and searches it", async () => {
    await ensureShopInstalled(shop);
    const at = new Date("2026-01-05T10:00:00.000Z");
    const first = await recordDelivery(delivery(shop, 1), at);
    // The unique (shop, fulfillment id), met on PostgreSQL, reads back the existing row.
    const again = await recordDelivery(delivery(shop, 1), at);
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, delivery: { id: first.delivery.id } });
    expect(first.delivery.nextAttemptAt).toEqual(at);
    await recordDelivery(delivery(other, 1));

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
    // Another shop cannot move it.
    await expect(
      transition({
        shop: other,
        id: first.delivery.id,
        from: "ready",
        to: "creating",
        event: { kind: "x", message: "x" },
      }),
    ).rejects.toBeInstanceOf(StaleDeliveryError);

    const read = await getDelivery(shop, first.delivery.id);
    expect(read?.state).toBe("ready");
    expect(read?.events.map((e) => e.kind)).toEqual(["received", "prepared"]);
    expect(await getDelivery(other, first.delivery.id)).toBeNull();

    await recordDelivery(delivery(shop, 2));
    const all = await listDeliveries({ shop });
    expect(all.total).toBe(2);
    // Search ignores case, as it does on SQLite.
    const found = await listDeliveries({ shop, search: "shpfy-models-fo2" });
    expect(found.deliveries.map((d) => d.reference)).toEqual(["SHPFY-Models-FO2"]);
    expect((await listDeliveries({ shop: other })).total).toBe(1);
  });

  it("shop/redact deletes every row of the shop in every table, and nothing of another shop", async () => {
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
