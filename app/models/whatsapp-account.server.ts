import { randomBytes } from "node:crypto";
import { z } from "zod";
import prisma from "../db.server";
import { jsonColumn, Unreadable } from "../domain/json-column";
import {
  DEFAULT_QUIET_HOURS,
  DEFAULT_TEMPLATE_NAMES,
  type QuietHours,
  type TemplateNames,
} from "../domain/shopper-message";
import { env } from "../env.server";
import { maskSecret, openSecret, SecretBoxError, sealSecret } from "../security/secret-box";

/**
 * The merchant's WhatsApp Business number (issue 27): its phone number id, the access token and
 * the Meta app's secret sealed like the courier key (shop bound as associated data), the tokens
 * of the status callback URL, the template names and when messages may go. The plaintext token
 * and secret leave this module only towards the WhatsApp client and the callback's signature
 * check; pages get a masked hint.
 *
 * Disconnecting empties the sealed columns and turns messages off, but keeps the callback URL's
 * tokens, so a merchant who connects again need not register a new URL with Meta.
 */

const tokenContext = (shop: string) => `shop:${shop}|whatsapp-access-token`;
const appSecretContext = (shop: string) => `shop:${shop}|whatsapp-app-secret`;

const templateName = z
  .string()
  .trim()
  .regex(/^[a-z0-9_]{1,512}$/);
const namesPerLanguage = z.object({ ar: templateName, en: templateName });
export const templateNamesSchema = z.object({
  address_check: namesPerLanguage,
  cash_confirmation: namesPerLanguage,
  out_for_delivery: namesPerLanguage,
  failed_attempt: namesPerLanguage,
});
const templatesColumn = jsonColumn("WhatsAppAccount.templates", templateNamesSchema);

export const DEFAULT_DAILY_CAP_PER_ORDER = 2;

/** 128 random bits, URL-safe. */
const randomToken = () => randomBytes(16).toString("base64url");

export interface WhatsAppSettingsSummary {
  connected: boolean;
  enabled: boolean;
  phoneNumberId: string | null;
  accessTokenHint: string | null;
  webhookToken: string | null;
  verifyToken: string | null;
  webhookVerifiedAt: Date | null;
  templates: TemplateNames;
  /** The stored names no longer read: the defaults are shown and used until saved again. */
  templatesUnreadable: boolean;
  quiet: QuietHours;
  dailyCapPerOrder: number;
  checkedAt: Date | null;
  checkError: string | null;
}

type AccountRow = NonNullable<Awaited<ReturnType<typeof prisma.whatsAppAccount.findUnique>>>;

function templatesOf(row: Pick<AccountRow, "templates" | "shop">): {
  templates: TemplateNames;
  unreadable: boolean;
} {
  const decoded = templatesColumn.decodeNullable(row.templates);
  if (decoded instanceof Unreadable) {
    console.warn(`${decoded.column} of ${row.shop} no longer reads (${decoded.problem}).`);
    return { templates: DEFAULT_TEMPLATE_NAMES, unreadable: true };
  }
  return { templates: decoded ?? DEFAULT_TEMPLATE_NAMES, unreadable: false };
}

const isConnected = (row: Pick<AccountRow, "accessTokenSealed" | "appSecretSealed">) =>
  row.accessTokenSealed !== "" && row.appSecretSealed !== "";

/** What Settings shows: never the token or the app secret. */
export async function getWhatsAppSettings(shop: string): Promise<WhatsAppSettingsSummary> {
  const row = await prisma.whatsAppAccount.findUnique({ where: { shop } });
  if (!row) {
    return {
      connected: false,
      enabled: false,
      phoneNumberId: null,
      accessTokenHint: null,
      webhookToken: null,
      verifyToken: null,
      webhookVerifiedAt: null,
      templates: DEFAULT_TEMPLATE_NAMES,
      templatesUnreadable: false,
      quiet: DEFAULT_QUIET_HOURS,
      dailyCapPerOrder: DEFAULT_DAILY_CAP_PER_ORDER,
      checkedAt: null,
      checkError: null,
    };
  }
  const { templates, unreadable } = templatesOf(row);
  const connected = isConnected(row);
  return {
    connected,
    enabled: connected && row.enabled,
    phoneNumberId: connected ? row.phoneNumberId : null,
    accessTokenHint: connected ? row.accessTokenHint : null,
    webhookToken: row.webhookToken,
    verifyToken: row.verifyToken,
    webhookVerifiedAt: row.webhookVerifiedAt,
    templates,
    templatesUnreadable: unreadable,
    quiet: { from: row.quietFrom, until: row.quietUntil },
    dailyCapPerOrder: row.dailyCapPerOrder,
    checkedAt: row.checkedAt,
    checkError: row.checkError,
  };
}

export interface WhatsAppCredentials {
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
}

/** The stored credentials: none, readable, or sealed under a key no longer configured. */
export type StoredWhatsAppCredentials =
  | { status: "none" }
  | { status: "readable"; credentials: WhatsAppCredentials }
  | { status: "unreadable" };

function openCredentials(row: AccountRow): StoredWhatsAppCredentials {
  if (!isConnected(row)) return { status: "none" };
  const keys = env().ENCRYPTION_KEYS;
  try {
    return {
      status: "readable",
      credentials: {
        phoneNumberId: row.phoneNumberId,
        accessToken: openSecret(row.accessTokenSealed, tokenContext(row.shop), keys),
        appSecret: openSecret(row.appSecretSealed, appSecretContext(row.shop), keys),
      },
    };
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    return { status: "unreadable" };
  }
}

export async function loadWhatsAppCredentials(shop: string): Promise<StoredWhatsAppCredentials> {
  const row = await prisma.whatsAppAccount.findUnique({ where: { shop } });
  return row ? openCredentials(row) : { status: "none" };
}

/** What the message loop needs to send for a shop, or why it cannot. */
export type WhatsAppSender =
  | {
      status: "ready";
      phoneNumberId: string;
      accessToken: string;
      templates: TemplateNames;
      quiet: QuietHours;
      dailyCapPerOrder: number;
      /** Meta completed the callback URL's handshake: a send of unknown outcome can be confirmed. */
      webhookVerified: boolean;
    }
  | { status: "off" | "unreadable" };

export async function loadWhatsAppSender(shop: string): Promise<WhatsAppSender> {
  const row = await prisma.whatsAppAccount.findUnique({ where: { shop } });
  if (!row?.enabled) return { status: "off" };
  const stored = openCredentials(row);
  if (stored.status === "none") return { status: "off" };
  if (stored.status === "unreadable") return { status: "unreadable" };
  return {
    status: "ready",
    phoneNumberId: stored.credentials.phoneNumberId,
    accessToken: stored.credentials.accessToken,
    templates: templatesOf(row).templates,
    quiet: { from: row.quietFrom, until: row.quietUntil },
    dailyCapPerOrder: row.dailyCapPerOrder,
    webhookVerified: row.webhookVerifiedAt !== null,
  };
}

/**
 * A connection WhatsApp accepted (the test message went): the new credentials sealed, the check
 * recorded. The callback URL's tokens are made on the first connection and then kept.
 */
export async function saveWhatsAppConnection(input: {
  shop: string;
  phoneNumberId: string;
  accessToken?: string;
  appSecret?: string;
  at: Date;
}): Promise<void> {
  const { shop, at } = input;
  const keys = env().ENCRYPTION_KEYS;
  const secrets = {
    phoneNumberId: input.phoneNumberId,
    ...(input.accessToken && {
      accessTokenSealed: sealSecret(input.accessToken, tokenContext(shop), keys),
      accessTokenHint: maskSecret(input.accessToken),
    }),
    ...(input.appSecret && {
      appSecretSealed: sealSecret(input.appSecret, appSecretContext(shop), keys),
    }),
    checkedAt: at,
    checkError: null,
  };
  await prisma.whatsAppAccount.upsert({
    where: { shop },
    create: {
      shop,
      accessTokenSealed: "",
      appSecretSealed: "",
      webhookToken: randomToken(),
      verifyToken: randomToken(),
      ...secrets,
    },
    update: secrets,
  });
}

/** A failed test of the stored connection, remembered for Settings (a catalog key). */
export async function recordWhatsAppCheck(shop: string, error: string, at: Date): Promise<void> {
  await prisma.whatsAppAccount.updateMany({
    where: { shop },
    data: { checkedAt: at, checkError: error },
  });
}

export async function saveWhatsAppPreferences(
  shop: string,
  preferences: { templates: TemplateNames; quiet: QuietHours; dailyCapPerOrder: number },
): Promise<boolean> {
  const { count } = await prisma.whatsAppAccount.updateMany({
    where: { shop },
    data: {
      templates: templatesColumn.encode(preferences.templates),
      quietFrom: preferences.quiet.from,
      quietUntil: preferences.quiet.until,
      dailyCapPerOrder: preferences.dailyCapPerOrder,
    },
  });
  return count > 0;
}

/** Turns messages on or off; on only for a connected number. True when it changed. */
export async function setWhatsAppEnabled(shop: string, enabled: boolean): Promise<boolean> {
  const { count } = await prisma.whatsAppAccount.updateMany({
    where: enabled
      ? { shop, accessTokenSealed: { not: "" }, appSecretSealed: { not: "" } }
      : { shop },
    data: { enabled },
  });
  return count > 0;
}

/** Erases the sealed token and app secret and turns messages off. */
export async function disconnectWhatsApp(shop: string): Promise<void> {
  await prisma.whatsAppAccount.updateMany({
    where: { shop },
    data: {
      enabled: false,
      phoneNumberId: "",
      accessTokenSealed: "",
      accessTokenHint: null,
      appSecretSealed: "",
      checkedAt: null,
      checkError: null,
    },
  });
}

/** The shop a callback URL belongs to, its verify token and (when readable) its app secret. */
export async function whatsAppAccountForWebhook(webhookToken: string): Promise<{
  shop: string;
  verifyToken: string;
  phoneNumberId: string;
  appSecret: string | null;
} | null> {
  const row = await prisma.whatsAppAccount.findUnique({ where: { webhookToken } });
  if (!row) return null;
  const stored = openCredentials(row);
  return {
    shop: row.shop,
    verifyToken: row.verifyToken,
    phoneNumberId: row.phoneNumberId,
    appSecret: stored.status === "readable" ? stored.credentials.appSecret : null,
  };
}

/** Meta completed the GET handshake of the callback URL. */
export async function recordWebhookVerified(shop: string, at: Date): Promise<void> {
  await prisma.whatsAppAccount.updateMany({ where: { shop }, data: { webhookVerifiedAt: at } });
}
