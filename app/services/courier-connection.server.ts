import {
  CourierAuthError,
  CourierCircuitOpenError,
  createCourierClient,
  CourierTimeoutError,
  CourierUnavailableError,
  fetchMasterData,
  isCourierError,
  type CourierClient,
  type CourierError,
} from "../courier";
import { env } from "../env.server";
import {
  loadCourierApiKey,
  recordFailedCheck,
  removeCourierApiKey,
  saveMasterData,
  saveVerifiedConnection,
} from "../models/courier-account.server";
import { getShopSettings, type CourierEnvironment } from "../models/shop.server";
import { rememberStatus } from "../models/tracking.server";
import { recognizeStatus } from "../domain/courier-status";

/**
 * The merchant's courier connection: a key is only kept once the courier accepted it, and the
 * master data fetched with it is cached for address matching.
 */
export type ConnectionOutcome =
  | { ok: true; environment: CourierEnvironment; governances: number; areas: number }
  | { ok: false; error: string };

/** The base URL the operator configured for an environment, or null when it has none. */
export function courierBaseUrl(environment: CourierEnvironment): string | null {
  const config = env();
  return (
    (environment === "production" ? config.COURIER_PRODUCTION_URL : config.COURIER_SANDBOX_URL) ??
    null
  );
}

export function courierClientFor(
  environment: CourierEnvironment,
  apiKey: string,
): CourierClient | null {
  const baseUrl = courierBaseUrl(environment);
  if (!baseUrl) return null;
  return createCourierClient({ baseUrl, apiKey, timeoutMs: env().COURIER_TIMEOUT_MS });
}

/**
 * The shop's courier client for an environment, with its stored key: null when it has no key, its
 * key no longer decrypts (Settings says so), or the operator configured no address for it. The
 * worker, the cancel flow and the merchant's actions all take their client here.
 */
export async function shopCourierClient(
  shop: string,
  environment: CourierEnvironment,
): Promise<CourierClient | null> {
  const stored = await loadCourierApiKey(shop);
  return stored.status === "readable" ? courierClientFor(environment, stored.apiKey) : null;
}

/** What the merchant is told when the operator configured no base URL for the environment. */
export function environmentMissing(environment: CourierEnvironment): string {
  return environment === "production"
    ? "Production is not available yet: the app's operator has not configured the courier's production address."
    : "The sandbox is not available: the app's operator has not configured the courier's sandbox address. Choose production.";
}

/**
 * A failed check in the merchant's words (a sentence of the `messages` catalog): whether the key
 * was refused or the courier did not answer, without the call's HTTP status, endpoint or header
 * names. Those stay in the server's log, for support.
 */
export function connectionProblem(shop: string, error: CourierError): string {
  console.warn(`Courier connection check failed for ${shop}: ${error.name}: ${error.message}`);
  if (error instanceof CourierAuthError)
    return "The courier did not accept this API key. Check that the whole key was pasted and that it is for the chosen environment (test or live); if it still fails, ask the courier to confirm the key is active.";
  if (
    error instanceof CourierUnavailableError ||
    error instanceof CourierTimeoutError ||
    error instanceof CourierCircuitOpenError
  )
    return "The courier is not answering right now. Try again in a few minutes.";
  return "The courier's answer could not be used. Try again in a few minutes; if it keeps failing, contact the app's support.";
}

/** What an API key must look like before it is worth a call to the courier. */
export function apiKeyProblem(apiKey: string): string | null {
  if (apiKey.length > 512)
    return "That API key is too long; paste only the key the courier issued.";
  if (/\s/.test(apiKey))
    return "The API key must not contain spaces or line breaks; paste only the key.";
  if (!/^[\x21-\x7e]+$/.test(apiKey))
    return "The API key contains characters a courier key cannot have.";
  return null;
}

/**
 * "Test connection and save". With a new key, nothing is stored unless the courier accepts it;
 * without one, the stored key is checked against the chosen environment.
 */
export async function connectCourier(input: {
  shop: string;
  environment: CourierEnvironment;
  apiKey?: string;
  now?: Date;
}): Promise<ConnectionOutcome> {
  const { shop, environment } = input;
  const at = input.now ?? new Date();
  const newApiKey = input.apiKey?.trim() || undefined;
  if (newApiKey) {
    const problem = apiKeyProblem(newApiKey);
    if (problem) return { ok: false, error: problem };
  }
  let apiKey = newApiKey;
  if (!apiKey) {
    const stored = await loadCourierApiKey(shop, at);
    if (stored.status === "unreadable") return { ok: false, error: stored.error };
    if (stored.status === "none")
      return { ok: false, error: "Paste the API key the courier issued you." };
    apiKey = stored.apiKey;
  }
  const client = courierClientFor(environment, apiKey);
  if (!client) return { ok: false, error: environmentMissing(environment) };

  try {
    const masterData = await fetchMasterData(client);
    await saveVerifiedConnection({ shop, environment, newApiKey, masterData, at });
    await learnOrderStatuses(shop, client);
    return {
      ok: true,
      environment,
      governances: masterData.governances.length,
      areas: masterData.areas.length,
    };
  } catch (error) {
    if (!isCourierError(error)) throw error;
    const problem = connectionProblem(shop, error);
    // A rejected new key is not kept; a stored key that stopped working is remembered as failing.
    if (!newApiKey) await recordFailedCheck(shop, problem, at);
    return { ok: false, error: problem };
  }
}

/** Fetches the master data again with the stored key, for the shop's environment. */
export async function refreshCourierMasterData(
  shop: string,
  now = new Date(),
): Promise<ConnectionOutcome> {
  const settings = await getShopSettings(shop);
  const environment = settings?.courierEnvironment ?? "sandbox";
  const stored = await loadCourierApiKey(shop, now);
  if (stored.status === "unreadable") return { ok: false, error: stored.error };
  if (stored.status === "none") return { ok: false, error: "Add and test an API key first." };
  const client = courierClientFor(environment, stored.apiKey);
  if (!client) return { ok: false, error: environmentMissing(environment) };
  try {
    const masterData = await fetchMasterData(client);
    await saveMasterData(shop, environment, masterData, now);
    await learnOrderStatuses(shop, client);
    return {
      ok: true,
      environment,
      governances: masterData.governances.length,
      areas: masterData.areas.length,
    };
  } catch (error) {
    if (!isCourierError(error)) throw error;
    const problem = connectionProblem(shop, error);
    await recordFailedCheck(shop, problem, now);
    return { ok: false, error: problem };
  }
}

/**
 * The courier's order statuses (master data), each with the meaning recognized from its code and
 * name, for the mapping on Settings. The merchant's own choices are kept. Optional: when the
 * courier does not serve them, statuses are learned as tracking meets them.
 */
export async function learnOrderStatuses(shop: string, client: CourierClient): Promise<number> {
  let statuses;
  try {
    statuses = await client.orderStatuses();
  } catch (error) {
    if (isCourierError(error)) return 0;
    throw error;
  }
  let learned = 0;
  for (const status of statuses) {
    if (!status.code) continue;
    await rememberStatus(
      shop,
      status.code,
      status.name,
      recognizeStatus(status.code, status.name),
      null,
    );
    learned += 1;
  }
  return learned;
}

export async function disconnectCourier(shop: string): Promise<void> {
  await removeCourierApiKey(shop);
}
