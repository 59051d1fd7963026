import { carrierServiceRefusal } from "../domain/carrier-service-refusal";
import { env } from "../env.server";
import {
  findCheckoutRateSettings,
  getCheckoutRateSettings,
  saveCarrierServiceState,
  type CarrierServiceProblem,
} from "../models/checkout-rates.server";
import {
  activateCarrierService,
  createCarrierService,
  deleteCarrierService,
  listCarrierServices,
  readCarrierService,
  type CarrierService,
} from "../shopify/carrier-service";
import type { AdminGraphql } from "../shopify/graphql";

/**
 * The shop's carrier service in Shopify (issue 28, ADR 0063): turned on from Settings (created, or
 * the app's own one re-used and re-activated, so a reinstall never makes a second), off again
 * (deleted), and checked now and then, since Shopify switches it off when the shop leaves a plan
 * that allows it. Each outcome is saved on the shop's CheckoutRateSettings row
 * (saveCarrierServiceState) so Settings and Home can say it in words.
 */

export type CarrierServiceOutcome =
  { ok: true } | { ok: false; problem: CarrierServiceProblem; detail: string | null };

/** Where Shopify calls for rates: `<app>/checkout/rates/<token>`. */
export function checkoutRatesCallbackUrl(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, "")}/checkout/rates/${token}`;
}

const INACTIVE_AFTER_TURN_ON =
  "Shopify kept the carrier service inactive: the store's plan does not include carrier-calculated shipping.";

/** The name checkout shows above the rates: the courier's, as the merchant knows it. */
function serviceName(): string {
  return env().COURIER_DISPLAY_NAME;
}

/** Creates (or re-uses and re-activates) the shop's carrier service; saves the outcome. */
export async function turnOnCheckoutRates(
  shop: string,
  admin: AdminGraphql,
  appUrl: string,
): Promise<CarrierServiceOutcome> {
  const settings = await getCheckoutRateSettings(shop);
  const callbackUrl = checkoutRatesCallbackUrl(appUrl, settings.callbackToken);
  const name = serviceName();
  const checkedAt = new Date();
  try {
    const existing = await findOwnService(admin, settings.carrierServiceId, appUrl, callbackUrl);
    const reply = existing
      ? await activateCarrierService(admin, { id: existing.id, name, callbackUrl })
      : await createCarrierService(admin, { name, callbackUrl });
    // Shopify may keep a downgraded shop's service inactive rather than refuse: not serving.
    if (reply.ok && !reply.service.active)
      return refused(shop, true, reply.service.id, INACTIVE_AFTER_TURN_ON, checkedAt);
    if (reply.ok) {
      await saveCarrierServiceState(shop, {
        enabled: true,
        carrierServiceId: reply.service.id,
        problem: null,
        checkedAt,
      });
      return { ok: true };
    }
    // The merchant asked for it: enabled stays on, with Shopify's reason, until they turn it off.
    return refused(shop, true, existing?.id ?? settings.carrierServiceId, reply.refusal, checkedAt);
  } catch (error) {
    return refused(shop, true, settings.carrierServiceId, messageOf(error), checkedAt);
  }
}

/** Removes the shop's carrier service from Shopify; saves enabled = false. */
export async function turnOffCheckoutRates(
  shop: string,
  admin: AdminGraphql,
): Promise<CarrierServiceOutcome> {
  const settings = await getCheckoutRateSettings(shop);
  const checkedAt = new Date();
  const off = { enabled: false, carrierServiceId: null, problem: null, checkedAt } as const;
  let id = settings.carrierServiceId;
  try {
    if (id === null) {
      const appUrl = env().SHOPIFY_APP_URL;
      const callbackUrl = checkoutRatesCallbackUrl(appUrl, settings.callbackToken);
      id = (await findOwnService(admin, null, appUrl, callbackUrl))?.id ?? null;
    }
    if (id !== null) {
      const deleted = await deleteCarrierService(admin, id);
      // Already gone (deleted in the admin, or with an earlier install): what was asked is done.
      if (!deleted.ok && !/not (be )?found|does not exist|doesn't exist/i.test(deleted.refusal))
        return refused(shop, false, id, deleted.refusal, checkedAt);
    }
  } catch (error) {
    const detail = messageOf(error);
    // Without the scope the app never made a service it has not recorded: nothing to delete.
    if (!(id === null && carrierServiceRefusal(detail) === "scope_missing"))
      return refused(shop, false, id, detail, checkedAt);
  }
  await saveCarrierServiceState(shop, off);
  return { ok: true };
}

/**
 * Reads the service from Shopify; notices when Shopify turned it off (problem "deactivated"), and
 * clears the problem once it serves again. Throws when Shopify could not be asked (the caller
 * tries again later); a missing scope is saved as such.
 */
export async function checkCarrierService(
  shop: string,
  admin: AdminGraphql,
  now: Date = new Date(),
): Promise<CarrierServiceOutcome> {
  const settings = await findCheckoutRateSettings(shop);
  if (!settings?.enabled) return { ok: true };
  let service: CarrierService | null;
  try {
    service = settings.carrierServiceId
      ? await readCarrierService(admin, settings.carrierServiceId)
      : await findOwnService(
          admin,
          null,
          env().SHOPIFY_APP_URL,
          checkoutRatesCallbackUrl(env().SHOPIFY_APP_URL, settings.callbackToken),
        );
  } catch (error) {
    const detail = messageOf(error);
    if (carrierServiceRefusal(detail) !== "scope_missing") throw error;
    return refused(shop, true, settings.carrierServiceId, detail, now);
  }
  if (service?.active) {
    await saveCarrierServiceState(shop, {
      enabled: true,
      carrierServiceId: service.id,
      problem: null,
      checkedAt: now,
    });
    return { ok: true };
  }
  // Never created (Shopify refused it): the refusal stands. Otherwise gone or switched off.
  const problem: CarrierServiceProblem =
    !service && !settings.carrierServiceId && settings.serviceProblem
      ? settings.serviceProblem
      : "deactivated";
  const detail =
    problem === "deactivated"
      ? service
        ? "Shopify lists the carrier service as inactive."
        : "Shopify no longer has the carrier service."
      : settings.serviceProblemDetail;
  await saveCarrierServiceState(shop, {
    enabled: true,
    carrierServiceId: service?.id ?? settings.carrierServiceId,
    problem,
    problemDetail: detail,
    checkedAt: now,
  });
  return { ok: false, problem, detail };
}

/**
 * The app's own service: the one recorded, else one calling this app's rates route (the same
 * token, or an older one of a previous install), never another app's.
 */
async function findOwnService(
  admin: AdminGraphql,
  recordedId: string | null,
  appUrl: string,
  callbackUrl: string,
): Promise<CarrierService | null> {
  if (recordedId) {
    const recorded = await readCarrierService(admin, recordedId);
    if (recorded) return recorded;
  }
  const services = await listCarrierServices(admin);
  const ourRoute = checkoutRatesCallbackUrl(appUrl, "");
  return (
    services.find((s) => s.callbackUrl === callbackUrl) ??
    services.find((s) => s.callbackUrl?.startsWith(ourRoute)) ??
    null
  );
}

async function refused(
  shop: string,
  enabled: boolean,
  carrierServiceId: string | null,
  detail: string,
  checkedAt: Date,
): Promise<CarrierServiceOutcome> {
  const problem = carrierServiceRefusal(detail);
  await saveCarrierServiceState(shop, {
    enabled,
    carrierServiceId,
    problem,
    problemDetail: detail.slice(0, 500),
    checkedAt,
  });
  return { ok: false, problem, detail };
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // The library's GraphqlQueryError keeps Shopify's errors (e.g. ACCESS_DENIED) on its body.
  const body = (error as { body?: { errors?: { graphQLErrors?: unknown } } }).body;
  const errors = body?.errors?.graphQLErrors;
  if (!Array.isArray(errors) || errors.length === 0) return error.message;
  return errors
    .map((e: { message?: unknown; extensions?: { code?: unknown } }) =>
      [String(e.message ?? ""), e.extensions?.code ? `(${String(e.extensions.code)})` : ""]
        .filter(Boolean)
        .join(" "),
    )
    .join("; ");
}
