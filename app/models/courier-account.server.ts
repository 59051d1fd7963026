import type { CourierMasterData } from "../courier";
import { masterDataSchemas } from "../courier/master-data";
import prisma from "../db.server";
import { jsonColumn, Unreadable } from "../domain/json-column";
import { env } from "../env.server";
import {
  maskSecret,
  openSecret,
  SecretBoxError,
  sealedKeyId,
  sealSecret,
} from "../security/secret-box";
import { getShopSettings, type CourierEnvironment, type ShopSettingsRow } from "./shop.server";

/**
 * The shop's courier account: the sealed API key, the last connection check and the cached master
 * data. The plaintext key leaves this module only towards the courier client.
 */

const keyContext = (shop: string) => `shop:${shop}|courier-api-key`;

export interface CourierAccountSummary {
  environment: CourierEnvironment;
  keyHint: string | null;
  keySetAt: Date | null;
  checkedAt: Date | null;
  checkError: string | null;
}

export function summarize(settings: ShopSettingsRow | null): CourierAccountSummary {
  return {
    environment: settings?.courierEnvironment ?? "sandbox",
    keyHint: settings?.courierApiKeyHint ?? null,
    keySetAt: settings?.courierApiKeySetAt ?? null,
    checkedAt: settings?.courierCheckedAt ?? null,
    checkError: settings?.courierCheckError ?? null,
  };
}

export async function getCourierAccount(shop: string): Promise<CourierAccountSummary> {
  return summarize(await getShopSettings(shop));
}

/**
 * The plaintext key, or null when none is stored. A key sealed with an older encryption key is
 * sealed again with the current one on the way (lazy rotation). Throws `SecretBoxError` when the
 * stored key cannot be decrypted: pages and jobs use `loadCourierApiKey`, which says so instead.
 */
export async function readCourierApiKey(shop: string): Promise<string | null> {
  const settings = await prisma.shopSettings.findUnique({
    where: { shop },
    select: { courierApiKeySealed: true },
  });
  const sealed = settings?.courierApiKeySealed;
  if (!sealed) return null;
  const keys = env().ENCRYPTION_KEYS;
  const apiKey = openSecret(sealed, keyContext(shop), keys);
  if (sealedKeyId(sealed) !== keys[0]?.id) {
    await prisma.shopSettings.updateMany({
      where: { shop, courierApiKeySealed: sealed },
      data: { courierApiKeySealed: sealSecret(apiKey, keyContext(shop), keys) },
    });
  }
  return apiKey;
}

/** What pages and jobs are told when the stored key cannot be decrypted. */
export const UNREADABLE_COURIER_KEY =
  "The saved courier key can no longer be read (the app's encryption keys changed); paste it again.";

export type StoredCourierKey =
  | { status: "none" }
  | { status: "readable"; apiKey: string }
  | { status: "unreadable"; error: string };

/**
 * The stored key, or why there is none to use. A key that no longer decrypts (its encryption key
 * was removed from ENCRYPTION_KEYS, or the row was altered) is recorded as the connection's last
 * check error, so Settings shows what to do, and is never an exception for the caller.
 */
export async function loadCourierApiKey(shop: string, at = new Date()): Promise<StoredCourierKey> {
  try {
    const apiKey = await readCourierApiKey(shop);
    return apiKey === null ? { status: "none" } : { status: "readable", apiKey };
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    await prisma.shopSettings.updateMany({
      where: {
        shop,
        OR: [{ courierCheckError: null }, { courierCheckError: { not: UNREADABLE_COURIER_KEY } }],
      },
      data: { courierCheckedAt: at, courierCheckError: UNREADABLE_COURIER_KEY },
    });
    return { status: "unreadable", error: UNREADABLE_COURIER_KEY };
  }
}

/**
 * Why there is no courier client for the shop right now, in the merchant's words: the key is
 * missing, or stored but unreadable, or the environment has no base URL on this server.
 */
export async function courierUnavailableReason(shop: string): Promise<string> {
  const stored = await loadCourierApiKey(shop);
  if (stored.status === "unreadable") return stored.error;
  if (stored.status === "none") return "No courier API key is stored: add it in Settings.";
  return "The courier environment chosen in Settings is not configured on the app's server.";
}

export type MasterDataSnapshot = CourierMasterData;

/**
 * `CourierMasterData.governances` and `.areas`. When either no longer reads, the master data is
 * treated as not fetched: deliveries wait with "test the connection in Settings", which fetches it
 * again and overwrites it.
 */
const governancesColumn = jsonColumn(
  "CourierMasterData.governances",
  masterDataSchemas.governances,
);
const areasColumn = jsonColumn("CourierMasterData.areas", masterDataSchemas.areas);

/**
 * A successful connection: environment, key (when a new one was given), check time and the master
 * data it fetched, written together.
 */
export async function saveVerifiedConnection(input: {
  shop: string;
  environment: CourierEnvironment;
  newApiKey?: string;
  masterData: MasterDataSnapshot;
  at: Date;
}): Promise<void> {
  const { shop, environment, newApiKey, masterData, at } = input;
  const keyFields = newApiKey
    ? {
        courierApiKeySealed: sealSecret(newApiKey, keyContext(shop), env().ENCRYPTION_KEYS),
        courierApiKeyHint: maskSecret(newApiKey),
        courierApiKeySetAt: at,
      }
    : {};
  const fields = {
    courierEnvironment: environment,
    courierCheckedAt: at,
    courierCheckError: null,
    ...keyFields,
  };
  await prisma.$transaction([
    prisma.shopSettings.upsert({ where: { shop }, create: { shop, ...fields }, update: fields }),
    saveMasterDataQuery(shop, environment, masterData, at),
  ]);
}

/** A failed check of the stored key: remembered so the home page can say so. */
export async function recordFailedCheck(shop: string, message: string, at: Date): Promise<void> {
  await prisma.shopSettings.updateMany({
    where: { shop },
    data: { courierCheckedAt: at, courierCheckError: message },
  });
}

export async function removeCourierApiKey(shop: string): Promise<void> {
  await prisma.shopSettings.updateMany({
    where: { shop },
    data: {
      courierApiKeySealed: null,
      courierApiKeyHint: null,
      courierApiKeySetAt: null,
      courierCheckedAt: null,
      courierCheckError: null,
    },
  });
}

export async function saveMasterData(
  shop: string,
  environment: CourierEnvironment,
  masterData: MasterDataSnapshot,
  at: Date,
): Promise<void> {
  await saveMasterDataQuery(shop, environment, masterData, at);
}

function saveMasterDataQuery(
  shop: string,
  environment: CourierEnvironment,
  masterData: MasterDataSnapshot,
  at: Date,
) {
  const data = {
    governances: governancesColumn.encode(masterData.governances),
    areas: areasColumn.encode(masterData.areas),
    fetchedAt: at,
  };
  return prisma.courierMasterData.upsert({
    where: { shop_environment: { shop, environment } },
    create: { shop, environment, ...data },
    update: data,
  });
}

export interface CachedMasterData extends MasterDataSnapshot {
  fetchedAt: Date;
}

/** When the stored master data was fetched (null: none stored): whether a built copy is current. */
export async function masterDataFetchedAt(
  shop: string,
  environment: CourierEnvironment,
): Promise<Date | null> {
  const row = await prisma.courierMasterData.findUnique({
    where: { shop_environment: { shop, environment } },
    select: { fetchedAt: true },
  });
  return row?.fetchedAt ?? null;
}

export async function getCachedMasterData(
  shop: string,
  environment: CourierEnvironment,
): Promise<CachedMasterData | null> {
  const row = await prisma.courierMasterData.findUnique({
    where: { shop_environment: { shop, environment } },
  });
  if (!row) return null;
  const governances = governancesColumn.decode(row.governances);
  if (governances instanceof Unreadable) return notFetched(governances, shop, environment);
  const areas = areasColumn.decode(row.areas);
  if (areas instanceof Unreadable) return notFetched(areas, shop, environment);
  return { governances, areas, fetchedAt: row.fetchedAt };
}

function notFetched(column: Unreadable, shop: string, environment: CourierEnvironment): null {
  console.warn(
    `${column.column} of ${shop} (${environment}) no longer reads (${column.problem}): treated as not fetched.`,
  );
  return null;
}
