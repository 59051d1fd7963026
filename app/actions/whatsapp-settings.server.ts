import { z } from "zod";
import { customerWhatsappNumber, type MessageLanguage } from "../domain/shopper-chat";
import {
  DEFAULT_TEMPLATE_NAMES,
  MESSAGE_PURPOSES,
  templateParameters,
  type TemplateNames,
} from "../domain/shopper-message";
import { env } from "../env.server";
import { readTrackingPageContact } from "../models/tracking-page.server";
import {
  disconnectWhatsApp,
  getWhatsAppSettings,
  loadWhatsAppCredentials,
  recordWhatsAppCheck,
  saveWhatsAppConnection,
  saveWhatsAppPreferences,
  setWhatsAppEnabled,
  type WhatsAppSettingsSummary,
} from "../models/whatsapp-account.server";
import {
  sendTemplate,
  WhatsAppAuthError,
  WhatsAppError,
  WhatsAppMalformedReplyError,
  WhatsAppRateLimitedError,
  WhatsAppRequestError,
  WhatsAppTemplateError,
  WhatsAppUnavailableError,
  WhatsAppUndeliverableError,
} from "../whatsapp";

/**
 * Settings' "WhatsApp messages" section (issue 27): connect a WhatsApp Business number (kept only
 * once a test message to the merchant's own phone was accepted), the template names, quiet hours
 * and the daily cap, on/off, disconnect. Errors are keys of the settings catalog; what the
 * merchant typed (but the token and secret) comes back with them, so nothing typed is lost.
 */

export const WHATSAPP_INTENTS = [
  "whatsapp-connect",
  "whatsapp-save",
  "whatsapp-on",
  "whatsapp-off",
  "whatsapp-disconnect",
] as const;

export type WhatsAppActionResult =
  | {
      ok: true;
      section: "whatsapp";
      done: "connected" | "tested" | "saved" | "on" | "off" | "disconnected";
    }
  | {
      ok: false;
      section: "whatsapp";
      errorKey: string;
      /** The field to fix, when it is one. */
      field?: string;
      /** What was typed, but the access token and app secret. */
      values: Record<string, string>;
    };

export const isWhatsAppIntent = (intent: unknown) =>
  (WHATSAPP_INTENTS as readonly unknown[]).includes(intent);

const text = z
  .string()
  .optional()
  .transform((value) => value?.trim() ?? "");

const connectForm = z.object({
  intent: z.literal("whatsapp-connect"),
  phoneNumberId: text,
  accessToken: text,
  appSecret: text,
  testPhone: text,
  testLanguage: z.enum(["ar", "en"]).catch("ar"),
});

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const templateField = (purpose: string, language: string) => `template.${purpose}.${language}`;

const preferencesForm = z.object({
  quietFrom: z.string().trim().regex(TIME, "whatsapp.errors.quietTime"),
  quietUntil: z.string().trim().regex(TIME, "whatsapp.errors.quietTime"),
  dailyCapPerOrder: z.coerce
    .number({ error: "whatsapp.errors.dailyCap" })
    .int("whatsapp.errors.dailyCap")
    .min(1, "whatsapp.errors.dailyCap")
    .max(10, "whatsapp.errors.dailyCap"),
});

/** "21:00" for 1260 minutes after midnight. */
export const minutesToTime = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

const timeToMinutes = (time: string) => {
  const [, hours, minutes] = TIME.exec(time) ?? [];
  return Number(hours) * 60 + Number(minutes);
};

/** The typed values to hand back with an error: never the token or the app secret. */
function typedValues(fields: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter(
      (entry): entry is [string, string] =>
        typeof entry[1] === "string" && entry[0] !== "accessToken" && entry[0] !== "appSecret",
    ),
  );
}

/** The merchant's words for a failed test message, by what WhatsApp said. */
export function whatsAppProblem(error: WhatsAppError): string {
  if (error instanceof WhatsAppAuthError) return "whatsapp.errors.auth";
  if (error instanceof WhatsAppTemplateError) return "whatsapp.errors.template";
  if (error instanceof WhatsAppUndeliverableError) return "whatsapp.errors.testPhoneNotOnWhatsApp";
  if (error instanceof WhatsAppRateLimitedError) return "whatsapp.errors.rateLimited";
  if (error instanceof WhatsAppMalformedReplyError) return "whatsapp.errors.malformed";
  if (error instanceof WhatsAppUnavailableError) return "whatsapp.errors.unavailable";
  if (error instanceof WhatsAppRequestError) return "whatsapp.errors.request";
  return "whatsapp.errors.unavailable";
}

const credentialProblem = (field: "accessToken" | "appSecret", value: string) =>
  value.length > 1024 || !/^[\x21-\x7e]+$/.test(value) ? `whatsapp.errors.${field}` : null;

/** The name the shopper reads in the test message: the tracking page's, else the store's. */
async function shopName(shop: string): Promise<string> {
  const contact = await readTrackingPageContact(shop);
  return contact.shopName ?? shop.replace(/\.myshopify\.com$/, "");
}

async function connect(
  shop: string,
  form: z.infer<typeof connectForm>,
  values: Record<string, string>,
  now: Date,
): Promise<WhatsAppActionResult> {
  const fail = (errorKey: string, field?: string): WhatsAppActionResult => ({
    ok: false,
    section: "whatsapp",
    errorKey,
    ...(field && { field }),
    values,
  });
  const current = await getWhatsAppSettings(shop);
  const typedAny = form.phoneNumberId !== "" || form.accessToken !== "" || form.appSecret !== "";
  const stored = await loadWhatsAppCredentials(shop);
  if (!typedAny && stored.status === "unreadable") return fail("whatsapp.errors.unreadable");
  const storedCredentials = stored.status === "readable" ? stored.credentials : null;

  const phoneNumberId = form.phoneNumberId || storedCredentials?.phoneNumberId || "";
  if (!/^\d{1,32}$/.test(phoneNumberId))
    return fail("whatsapp.errors.phoneNumberId", "phoneNumberId");
  const accessToken = form.accessToken || storedCredentials?.accessToken || "";
  if (accessToken === "") return fail("whatsapp.errors.accessTokenMissing", "accessToken");
  const tokenProblem = credentialProblem("accessToken", accessToken);
  if (tokenProblem) return fail(tokenProblem, "accessToken");
  const appSecret = form.appSecret || storedCredentials?.appSecret || "";
  if (appSecret === "") return fail("whatsapp.errors.appSecretMissing", "appSecret");
  const secretProblem = credentialProblem("appSecret", appSecret);
  if (secretProblem) return fail(secretProblem, "appSecret");
  const to = customerWhatsappNumber(form.testPhone);
  if (!to) return fail("whatsapp.errors.testPhone", "testPhone");

  const language: MessageLanguage = form.testLanguage;
  const facts = { shopName: await shopName(shop), orderName: "#1001", token: "test" };
  try {
    await sendTemplate(
      {
        phoneNumberId,
        accessToken,
        to,
        template: {
          name: current.templates.address_check[language],
          languageCode: language,
          bodyParameters: templateParameters("address_check", facts),
          buttonUrlParameter: facts.token,
        },
      },
      { baseUrl: env().WHATSAPP_API_URL },
    );
  } catch (error) {
    if (!(error instanceof WhatsAppError)) throw error;
    // The log gets the class and Meta's code, never the token, the secret or the phone.
    console.warn(
      `WhatsApp test message failed for ${shop}: ${error.name} (code ${error.code ?? "none"})`,
    );
    const problem = whatsAppProblem(error);
    // A refused new connection is not kept; the stored one that failed is remembered as failing.
    if (!typedAny && current.connected) await recordWhatsAppCheck(shop, problem, now);
    return fail(problem, problem === "whatsapp.errors.auth" ? "accessToken" : undefined);
  }
  await saveWhatsAppConnection({
    shop,
    phoneNumberId,
    ...(form.accessToken && { accessToken: form.accessToken }),
    ...(form.appSecret && { appSecret: form.appSecret }),
    at: now,
  });
  return { ok: true, section: "whatsapp", done: typedAny ? "connected" : "tested" };
}

/** Carries out one of the WhatsApp section's forms. */
export async function answerWhatsAppForm(
  shop: string,
  fields: Record<string, unknown>,
  now = new Date(),
): Promise<WhatsAppActionResult> {
  const values = typedValues(fields);
  const fail = (errorKey: string, field?: string): WhatsAppActionResult => ({
    ok: false,
    section: "whatsapp",
    errorKey,
    ...(field && { field }),
    values,
  });
  const intent = fields.intent;
  if (intent === "whatsapp-connect") {
    const form = connectForm.safeParse(fields);
    return form.success ? connect(shop, form.data, values, now) : fail("errors.form");
  }
  if (intent === "whatsapp-save") {
    const parsed = preferencesForm.safeParse(fields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(issue?.message ?? "errors.form", issue?.path[0]?.toString());
    }
    const templates = {} as TemplateNames;
    for (const purpose of MESSAGE_PURPOSES) {
      const names = { ...DEFAULT_TEMPLATE_NAMES[purpose] };
      for (const language of ["ar", "en"] as const) {
        const field = templateField(purpose, language);
        const name = typeof fields[field] === "string" ? fields[field].trim() : "";
        if (!/^[a-z0-9_]{1,512}$/.test(name)) return fail("whatsapp.errors.templateName", field);
        names[language] = name;
      }
      templates[purpose] = names;
    }
    const saved = await saveWhatsAppPreferences(shop, {
      templates,
      quiet: {
        from: timeToMinutes(parsed.data.quietFrom),
        until: timeToMinutes(parsed.data.quietUntil),
      },
      dailyCapPerOrder: parsed.data.dailyCapPerOrder,
    });
    return saved
      ? { ok: true, section: "whatsapp", done: "saved" }
      : fail("whatsapp.errors.notConnected");
  }
  if (intent === "whatsapp-on" || intent === "whatsapp-off") {
    const on = intent === "whatsapp-on";
    if (!(await setWhatsAppEnabled(shop, on))) return fail("whatsapp.errors.notConnected");
    return { ok: true, section: "whatsapp", done: on ? "on" : "off" };
  }
  if (intent === "whatsapp-disconnect") {
    await disconnectWhatsApp(shop);
    return { ok: true, section: "whatsapp", done: "disconnected" };
  }
  return fail("errors.form");
}

/** What the section shows: no token or app secret, the callback URL to give Meta. */
export function whatsAppSettingsView(summary: WhatsAppSettingsSummary) {
  const appUrl = env().SHOPIFY_APP_URL;
  return {
    connected: summary.connected,
    enabled: summary.enabled,
    phoneNumberId: summary.phoneNumberId,
    accessTokenHint: summary.accessTokenHint,
    callbackUrl: summary.webhookToken
      ? `${appUrl}/whatsapp/webhooks/${summary.webhookToken}`
      : null,
    verifyToken: summary.verifyToken,
    webhookVerifiedAt: summary.webhookVerifiedAt?.toISOString() ?? null,
    buttonUrl: `${appUrl}/tracking/{{1}}`,
    templates: summary.templates,
    templatesUnreadable: summary.templatesUnreadable,
    quietFrom: minutesToTime(summary.quiet.from),
    quietUntil: minutesToTime(summary.quiet.until),
    dailyCapPerOrder: summary.dailyCapPerOrder,
    lastCheck: summary.checkedAt
      ? { at: summary.checkedAt.toISOString(), errorKey: summary.checkError }
      : null,
  };
}

export async function loadWhatsAppSection(shop: string) {
  return whatsAppSettingsView(await getWhatsAppSettings(shop));
}

export type WhatsAppSectionData = ReturnType<typeof whatsAppSettingsView>;
