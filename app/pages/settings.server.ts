import { z } from "zod";
import { env } from "../env.server";
import { getCachedMasterData, getCourierAccount } from "../models/courier-account.server";
import {
  createPushCredentials,
  readPushCredentials,
  removePushCredentials,
} from "../models/push-credentials.server";
import { getShopSettings, saveAskSettings, saveDeliveryOptions } from "../models/shop.server";
import { getShopifyAccess } from "../models/shopify-access.server";
import { readTrackingPageContact, saveTrackingPageContact } from "../models/tracking-page.server";
import { listStatusMappings, saveStatusMappings } from "../models/tracking.server";
import { MARK_PAID_WHEN, markPaidWhen, setMarkPaidWhen } from "../models/cash-ledger.server";
import {
  connectCourier,
  disconnectCourier,
  refreshCourierMasterData,
  type ConnectionOutcome,
} from "../services/courier-connection.server";
import {
  mappedStateSchema,
  shopifyEventStatusSchema,
  type ShopifyEventStatus,
} from "../domain/courier-status";
import { kickTrackingSync } from "../pipeline/drain-loop.server";
import { resumeDeliveriesAfterConnection } from "../pipeline/runner.server";

/**
 * The Settings page's data and its answers (app/routes/app.settings.tsx): the courier
 * connection, the areas, the one form saved from the save bar (delivery options, marking cash on
 * delivery paid, the tracking page's shop name and contact, what each courier status means) and
 * the courier's status pushes. Errors are keys of the settings catalog (ADR 0040).
 */

const environmentField = z.enum(["sandbox", "production"], { error: "errors.environment" });

const checkbox = z
  .string()
  .optional()
  .transform((value) => value !== undefined);
const optionalText = (max: number, error: string) =>
  z
    .string()
    .trim()
    .max(max, error)
    .optional()
    .transform((value) => value || null);

/** The one form of everything that is a setting, saved from the save bar. */
const settingsForm = z.looseObject({
  intent: z.literal("save"),
  // A checked box is sent (Polaris sends an empty value), an unchecked one is not.
  autoSend: checkbox,
  notifyCustomer: checkbox,
  // When cash-on-delivery orders are marked paid in Shopify (issue 16): on delivery, when a
  // courier statement pays for them, or only with the Cash page's button.
  markPaidWhen: z.enum(MARK_PAID_WHEN).catch("never"),
  paymentCodeCod: optionalText(50, "errors.paymentCode"),
  paymentCodePrepaid: optionalText(50, "errors.paymentCode"),
  preparationMinutes: z.coerce
    .number({ error: "errors.preparationNumber" })
    .int("errors.preparationWhole")
    .min(0, "errors.preparationNegative")
    .max(10_080, "errors.preparationWeek"),
  trackingShopName: optionalText(100, "errors.shopName"),
  trackingContactPhone: optionalText(30, "errors.phone").refine(
    (value) => value === null || /^\+?[0-9 ]{6,20}$/.test(value),
    "errors.phone",
  ),
  trackingContactEmail: optionalText(200, "errors.email").refine(
    (value) => value === null || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value),
    "errors.email",
  ),
  // Asking customers (issue 26): doubtful addresses, every cash-on-delivery order, and how long
  // Shopify holds an order for the answer. A form without the window (an older page) keeps it.
  askShoppers: checkbox,
  askCashConfirmation: checkbox,
  // After a failed attempt, send again as soon as the customer answers (issue 27).
  resendOnRescueAnswer: checkbox,
  askWindowHours: z.preprocess(
    // An emptied field is no number of hours (not zero).
    (value) => (typeof value === "string" && value.trim() === "" ? Number.NaN : value),
    z.coerce
      .number({ error: "errors.askWindowNumber" })
      .int("errors.askWindowWhole")
      .min(1, "errors.askWindowRange")
      .max(168, "errors.askWindowRange")
      .optional(),
  ),
});

const settingsAction = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("connect"),
    courierEnvironment: environmentField,
    apiKey: z.string().optional(),
  }),
  z.object({ intent: z.literal("refresh-master-data") }),
  z.object({ intent: z.literal("remove-key") }),
  z.object({ intent: z.literal("push-on") }),
  z.object({ intent: z.literal("push-off") }),
  // Fields `state:<code>` and `shopify:<code>` per courier status, read by statusMappingForm.
  settingsForm,
]);

/** The mapping table's fields; an unknown choice names the status it was made for. */
function statusMappingForm(fields: Record<string, unknown>) {
  const entries: {
    code: string;
    state: z.infer<typeof mappedStateSchema> | null;
    shopifyStatus: ShopifyEventStatus | null;
  }[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (!key.startsWith("state:")) continue;
    const code = key.slice("state:".length);
    const state = value === "" ? null : mappedStateSchema.safeParse(value);
    const shopify = fields[`shopify:${code}`];
    const event =
      shopify === "" || shopify === undefined ? null : shopifyEventStatusSchema.safeParse(shopify);
    if (state && !state.success) return { error: "errors.mappingState", code };
    if (event && !event.success) return { error: "errors.mappingShopify", code };
    entries.push({
      code,
      state: state ? state.data : null,
      shopifyStatus: event ? event.data : null,
    });
  }
  return { entries };
}

/** What the Settings page shows, as plain data for the page. */
export async function loadSettingsPage(shop: string) {
  const account = await getCourierAccount(shop);
  const [masterData, settings, push, mappings, shopifyAccess, trackingPage] = await Promise.all([
    getCachedMasterData(shop, account.environment),
    getShopSettings(shop),
    readPushCredentials(shop),
    listStatusMappings(shop),
    getShopifyAccess(shop),
    readTrackingPageContact(shop),
  ]);
  return {
    shopifyAccessLost: shopifyAccess.lostAt ? (shopifyAccess.reason ?? "") : null,
    tracking: {
      markPaidWhen: settings ? markPaidWhen(settings) : ("never" as const),
      push: push
        ? {
            url: `${env().SHOPIFY_APP_URL}/courier/webhooks/${push.token}`,
            secret: push.secret,
          }
        : null,
      mappings: mappings.map((m) => ({
        code: m.code,
        name: m.name,
        state: m.state,
        shopifyStatus: m.shopifyStatus,
        source: m.source,
        problem: m.problem,
        lastSeenAt: m.lastSeenAt?.toISOString() ?? null,
      })),
    },
    deliveryOptions: {
      autoSend: settings?.autoSend ?? false,
      notifyCustomer: settings?.notifyCustomer ?? true,
      paymentCodeCod: settings?.paymentCodeCod ?? "",
      paymentCodePrepaid: settings?.paymentCodePrepaid ?? "",
      preparationMinutes: settings?.preparationMinutes ?? 120,
    },
    trackingPage,
    // What the tracking page shows while the merchant's own shop name is empty.
    shopifyShopName: settings?.shopifyShopName ?? null,
    askCustomers: {
      addresses: settings?.askShoppers ?? true,
      cash: settings?.askCashConfirmation ?? false,
      resendOnAnswer: settings?.resendOnRescueAnswer ?? false,
      windowHours: settings?.askWindowHours ?? 24,
    },
    courierEnvironment: account.environment,
    productionAvailable: Boolean(env().COURIER_PRODUCTION_URL),
    key: account.keyHint
      ? { hint: account.keyHint, setAt: account.keySetAt?.toISOString() ?? null }
      : null,
    lastCheck: account.checkedAt
      ? { at: account.checkedAt.toISOString(), error: account.checkError }
      : null,
    masterData: masterData
      ? {
          fetchedAt: masterData.fetchedAt.toISOString(),
          governances: masterData.governances.length,
          areas: masterData.areas.length,
        }
      : null,
  };
}

export type SettingsPageData = Awaited<ReturnType<typeof loadSettingsPage>>;

export type SettingsActionResult =
  | ConnectionOutcome
  | { ok: true; removed: true }
  | { ok: true; saved: "settings" | "push-on" | "push-off" | "master-data" }
  // A catalog key of the settings page, and what it names.
  | { ok: false; errorKey: string; code?: string };

/** Carries out one of the Settings page's forms. */
export async function answerSettingsForm(
  shop: string,
  fields: Record<string, unknown>,
): Promise<SettingsActionResult> {
  const parsed = settingsAction.safeParse(fields);
  if (!parsed.success) {
    return { ok: false, errorKey: parsed.error.issues[0]?.message ?? "errors.form" };
  }
  const form = parsed.data;
  if (form.intent === "connect") {
    const outcome = await connectCourier({
      shop,
      environment: form.courierEnvironment,
      apiKey: form.apiKey,
    });
    if (outcome.ok) await resumeDeliveriesAfterConnection(shop);
    return outcome;
  }
  if (form.intent === "save") {
    const mapping = statusMappingForm(form);
    if ("error" in mapping) {
      return { ok: false, errorKey: mapping.error ?? "errors.form", code: mapping.code };
    }
    await saveDeliveryOptions(shop, {
      autoSend: form.autoSend,
      notifyCustomer: form.notifyCustomer,
      paymentCodeCod: form.paymentCodeCod,
      paymentCodePrepaid: form.paymentCodePrepaid,
      preparationMinutes: form.preparationMinutes,
    });
    await setMarkPaidWhen(shop, form.markPaidWhen);
    await saveAskSettings(shop, {
      askShoppers: form.askShoppers,
      askCashConfirmation: form.askCashConfirmation,
      resendOnRescueAnswer: form.resendOnRescueAnswer,
      askWindowHours: form.askWindowHours,
    });
    await saveTrackingPageContact(shop, {
      shopName: form.trackingShopName,
      phone: form.trackingContactPhone,
      email: form.trackingContactEmail,
    });
    if (mapping.entries.length > 0) {
      const { deliveries } = await saveStatusMappings(shop, mapping.entries);
      if (deliveries > 0) kickTrackingSync();
    }
    return { ok: true, saved: "settings" };
  }
  if (form.intent === "refresh-master-data") {
    const refreshed = await refreshCourierMasterData(shop);
    return refreshed.ok ? { ok: true, saved: "master-data" } : refreshed;
  }
  if (form.intent === "push-on") {
    await createPushCredentials(shop);
    return { ok: true, saved: "push-on" };
  }
  if (form.intent === "push-off") {
    await removePushCredentials(shop);
    return { ok: true, saved: "push-off" };
  }
  await disconnectCourier(shop);
  return { ok: true, removed: true };
}
