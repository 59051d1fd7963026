import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient, type Prisma } from "@prisma/client";
import { inject } from "vitest";
import { normalizeArabic } from "../../app/addresses";
import { createCourierClient, fetchMasterData } from "../../app/courier";
import { parseEnv } from "../../app/env.server";
import { sealSecret } from "../../app/security/secret-box";
import { SANDBOX_KEY, testEnvironment } from "./test-env";

/**
 * The shop every browser test file opens (test/browser/global-setup.ts starts one app for them
 * all): its database, the Shopify stand-in's store, and the merchant's set-up as Settings and
 * Pickup locations would leave it. Files run in any order, so each sets what it needs; the
 * files that send orders (deliveries, cancel-and-send) disconnect the courier again
 * (`disconnectBrowserShop`), the others leave it connected, and a file that needs the shop not
 * connected (admin-pages) disconnects it first.
 */
export const BROWSER_SHOP_NAME = "browser-shop";
export const BROWSER_SHOP = `${BROWSER_SHOP_NAME}.myshopify.com`;

/** The app's own SQLite file, opened by the test file. */
export function appDatabase(): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaBetterSQLite3({ url: inject("appDatabaseFile") }),
  });
}

/** The Shopify stand-in's test API: a GET, or a POST of `body`. */
export async function standIn(path: string, body?: unknown) {
  const response = await fetch(`${inject("standInUrl")}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`stand-in ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

export type MasterData = Awaited<ReturnType<typeof fetchMasterData>>;

/**
 * The courier connected in the sandbox with the test key (sealed as Settings seals it) and the
 * courier's own lists kept, whatever another file left; `settings` adds or overrides fields.
 */
export async function connectCourier(
  prisma: PrismaClient,
  settings: Omit<Prisma.ShopSettingsUncheckedCreateInput, "shop"> = {},
): Promise<MasterData> {
  const shop = BROWSER_SHOP;
  const masterData = await fetchMasterData(
    createCourierClient({ baseUrl: inject("courierSandboxUrl"), apiKey: SANDBOX_KEY }),
  );
  const keys = parseEnv(testEnvironment()).ENCRYPTION_KEYS;
  const values = {
    courierEnvironment: "sandbox",
    courierApiKeySealed: sealSecret(SANDBOX_KEY, `shop:${shop}|courier-api-key`, keys),
    courierApiKeyHint: "••••••••-key",
    ...settings,
  };
  await prisma.shopSettings.upsert({
    where: { shop },
    create: { shop, ...values },
    update: values,
  });
  const lists = {
    governances: JSON.stringify(masterData.governances),
    areas: JSON.stringify(masterData.areas),
    fetchedAt: new Date(),
  };
  await prisma.courierMasterData.upsert({
    where: { shop_environment: { shop, environment: "sandbox" } },
    create: { shop, environment: "sandbox", ...lists },
    update: lists,
  });
  return masterData;
}

/** Hawalli and Salmiya in the courier's lists (the test store's shop is in Salmiya). */
export function salmiyaIn(masterData: MasterData) {
  const named =
    (name: string) => (x: { governanceName?: string | null; areaName?: string | null }) =>
      normalizeArabic(x.governanceName ?? x.areaName ?? "") === normalizeArabic(name);
  return {
    hawalli: masterData.governances.find(named("حولي"))!,
    salmiya: masterData.areas.find(named("السالمية"))!,
  };
}

/** The stand-in store's locations, its shop in Salmiya created first when it has none. */
export async function ensureStoreLocation(): Promise<{ id: number; name: string }[]> {
  if (((await standIn("/__standin/locations")) as unknown[]).length === 0) {
    await standIn("/__standin/locations", {
      name: "Salmiya Shop",
      address: {
        address1: "Salem Al Mubarak Street, Block 10",
        city: "Salmiya",
        provinceCode: "KW-HA",
      },
    });
  }
  return (await standIn("/__standin/locations")) as { id: number; name: string }[];
}

/**
 * The store's shop in Salmiya (created in the stand-in if it has no location), and every one of
 * its locations confirmed as a pickup address there; orders ship from the first active one.
 */
export async function confirmSalmiyaPickups(prisma: PrismaClient, masterData: MasterData) {
  const shop = BROWSER_SHOP;
  const { hawalli, salmiya } = salmiyaIn(masterData);
  const locations = await ensureStoreLocation();
  for (const location of locations) {
    const locationId = `gid://shopify/Location/${location.id}`;
    await prisma.pickupLocation.upsert({
      where: { shop_locationId: { shop, locationId } },
      create: {
        shop,
        locationId,
        name: location.name,
        governanceId: hawalli.governanceId,
        areaId: salmiya.areaId!,
        block: "10",
        street: "Salem Al Mubarak",
        contactName: location.name,
        contactPhone: "22211111",
        confirmedAt: new Date(),
      },
      update: {},
    });
  }
  return { hawalli, salmiya };
}

/** The shop as the other browser test files expect to find it: no deliveries, not connected. */
export async function disconnectBrowserShop(prisma: PrismaClient): Promise<void> {
  const shop = BROWSER_SHOP;
  await prisma.$transaction([
    prisma.deliveryEvent.deleteMany({ where: { shop } }),
    prisma.delivery.deleteMany({ where: { shop } }),
    prisma.areaOverride.deleteMany({ where: { shop } }),
    prisma.pickupLocation.deleteMany({ where: { shop } }),
    prisma.courierMasterData.deleteMany({ where: { shop } }),
    prisma.shopSettings.updateMany({
      where: { shop },
      data: {
        courierApiKeySealed: null,
        courierApiKeyHint: null,
        courierApiKeySetAt: null,
        autoSend: false,
      },
    }),
  ]);
}
