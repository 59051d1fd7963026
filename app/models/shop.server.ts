import type { ShopSettings } from "@prisma/client";
import prisma, { eraseFromDisk } from "../db.server";
import { recoverFulfillmentsFrom } from "./fulfillment-checks.server";

/**
 * The shop's settings row, created on first use. Called after installation (token exchange) and
 * by the admin layout, so every installed shop has one.
 */
export async function ensureShopInstalled(shop: string, scopes?: string): Promise<ShopSettings> {
  return prisma.shopSettings.upsert({
    where: { shop },
    create: { shop, scopes },
    // A shop that reinstalls is active again.
    update: { uninstalledAt: null, ...(scopes === undefined ? {} : { scopes }) },
  });
}

/** The shop's settings as the app reads them: its courier environment typed. */
export type ShopSettingsRow = Omit<ShopSettings, "courierEnvironment"> & {
  courierEnvironment: CourierEnvironment;
};

export function shopSettingsRow(row: ShopSettings): ShopSettingsRow {
  return { ...row, courierEnvironment: parseEnvironment(row.courierEnvironment) };
}

export async function getShopSettings(shop: string): Promise<ShopSettingsRow | null> {
  const row = await prisma.shopSettings.findUnique({ where: { shop } });
  return row && shopSettingsRow(row);
}

/** False for a shop that uninstalled the app: nothing more is sent to the courier or Shopify for it. */
export async function isShopActive(shop: string): Promise<boolean> {
  const settings = await prisma.shopSettings.findUnique({
    where: { shop },
    select: { uninstalledAt: true },
  });
  return settings !== null && settings.uninstalledAt === null;
}

/**
 * app/uninstalled: the shop's access tokens are deleted and the shop is marked uninstalled. Its
 * settings stay until shop/redact (48 hours later), so a quick reinstall keeps the configuration.
 * Safe to run twice.
 */
export async function markShopUninstalled(shop: string, at: Date = new Date()): Promise<void> {
  await prisma.$transaction([
    prisma.session.deleteMany({ where: { shop } }),
    prisma.shopSettings.updateMany({
      where: { shop, uninstalledAt: null },
      data: { uninstalledAt: at },
    }),
  ]);
  await eraseFromDisk();
}

/** app/scopes_update: the granted scopes, kept on the sessions and the settings. */
export async function recordGrantedScopes(shop: string, scopes: string[]): Promise<void> {
  const scope = scopes.join(",");
  await prisma.$transaction([
    prisma.session.updateMany({ where: { shop }, data: { scope } }),
    prisma.shopSettings.updateMany({ where: { shop }, data: { scopes: scope } }),
  ]);
}

export const COURIER_ENVIRONMENTS = ["sandbox", "production"] as const;
export type CourierEnvironment = (typeof COURIER_ENVIRONMENTS)[number];

/** An environment read from the database, typed once where rows enter the app (the models). */
export function parseEnvironment(value: string): CourierEnvironment {
  const known = COURIER_ENVIRONMENTS.find((environment) => environment === value);
  if (!known) throw new Error(`Unknown courier environment "${value}" in the database.`);
  return known;
}

export interface DeliveryOptions {
  autoSend: boolean;
  paymentCodeCod: string | null;
  paymentCodePrepaid: string | null;
  preparationMinutes: number;
  notifyCustomer: boolean;
}

export async function saveDeliveryOptions(shop: string, options: DeliveryOptions): Promise<void> {
  const before = await prisma.shopSettings.findUnique({
    where: { shop },
    select: { autoSend: true },
  });
  await prisma.shopSettings.upsert({
    where: { shop },
    create: { shop, ...options },
    update: options,
  });
  // Turned on now: fulfillments made while it was off are not sent by the missed-webhook check.
  if (options.autoSend && !before?.autoSend) await recoverFulfillmentsFrom(shop, new Date());
}

/** When to ask customers (issue 26); a window left out keeps the one saved. */
export async function saveAskSettings(
  shop: string,
  settings: {
    askShoppers: boolean;
    askCashConfirmation: boolean;
    resendOnRescueAnswer?: boolean;
    askWindowHours?: number;
  },
): Promise<void> {
  await prisma.shopSettings.upsert({
    where: { shop },
    create: { shop, ...settings },
    update: settings,
  });
}

/** The shop's name as Shopify has it, kept for the shopper's page (read once, when first needed). */
export async function rememberShopifyShopName(shop: string, name: string): Promise<void> {
  await prisma.shopSettings.updateMany({ where: { shop }, data: { shopifyShopName: name } });
}
