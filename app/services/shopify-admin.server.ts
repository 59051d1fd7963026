import { randomBytes } from "node:crypto";
import os from "node:os";
import { Session } from "@shopify/shopify-api";
import { z } from "zod";
import { env } from "../env.server";
import {
  getShopifyAccess,
  markShopifyAccessLost,
  releaseTokenRenewal,
  takeTokenRenewal,
} from "../models/shopify-access.server";
import type { AdminGraphql } from "../shopify/graphql";
import { parseShopDomain } from "../shopify/shop-domain";
import { sessionStorage, unauthenticated } from "../shopify.server";

/**
 * Every Admin API client the worker, the tracking sync and the courier's pushes use comes from
 * here (ADR 0015). The shop's expiring offline token is renewed ten minutes before it ends, by one
 * process at a time across all of them (a hold on the shop's settings row); the others keep using
 * the token they have while it is still good, or wait for the holder and read the session it
 * stored. A refresh token Shopify refuses (spent by a renewal whose answer was lost, or revoked) is
 * recorded on the shop in words, the merchant is asked to open the app, and nobody tries it again.
 */

/** Renewed this long before the token ends. */
export const RENEW_BEFORE_MS = 10 * 60_000;
/**
 * The library renews by itself (every process on its own) within 5 minutes of the end; a token is
 * handed to it only while it has more than that left, plus a minute for the calls made with it.
 */
const USABLE_FOR_MS = 5 * 60_000 + 60_000;
/** How long one renewal may hold the shop: more than the request's own time limit. */
const HOLD_MS = 30_000;
const RENEWAL_TIMEOUT_MS = 15_000;
const WAIT_STEP_MS = 100;

/** Shopify will not renew the shop's token: only the merchant opening the app brings it back. */
export class ShopifyAccessLostError extends Error {
  readonly outcome = "wait_for_merchant" as const;
  constructor(message: string) {
    super(message);
    this.name = "ShopifyAccessLostError";
  }
}

/** The renewal did not happen this time (Shopify unreachable or failing); it is tried again. */
export class ShopifyTokenRenewalError extends Error {
  readonly outcome = "retry" as const;
  constructor(message: string) {
    super(message);
    this.name = "ShopifyTokenRenewalError";
  }
}

export const ACCESS_LOST_ADVICE =
  "Open the app from your Shopify admin to authorise it again; waiting deliveries then continue by themselves.";

/** This process, as a holder of renewals: unique per start (host and pid repeat across containers). */
const HOLDER = `${os.hostname()}:${process.pid}:${randomBytes(6).toString("hex")}`;

/** Renewals under way in this process, so its own concurrent callers share one. */
const renewing = new Map<string, Promise<Session>>();

/** The shop's Admin API client, its token renewed first when it is due. */
export async function shopifyAdminFor(shop: string): Promise<AdminGraphql> {
  await offlineSessionFor(shop);
  return (await unauthenticated.admin(shop)).admin;
}

/**
 * The shop's offline session with a token good for at least a few more minutes, renewed (once,
 * across processes) when it ends within {@link RENEW_BEFORE_MS}.
 */
export async function offlineSessionFor(shop: string): Promise<Session> {
  const session = await loadOfflineSession(shop);
  if (!dueForRenewal(session)) return session;
  let shared = renewing.get(shop);
  if (!shared) {
    shared = renewOnce(shop).finally(() => renewing.delete(shop));
    renewing.set(shop, shared);
  }
  return shared;
}

async function loadOfflineSession(shop: string): Promise<Session> {
  const session = await sessionStorage.loadSession(`offline_${shop}`);
  if (!session?.accessToken) {
    throw new ShopifyAccessLostError(
      `The app has no Shopify access for ${shop}. ${ACCESS_LOST_ADVICE}`,
    );
  }
  return session;
}

function dueForRenewal(session: Session, now = Date.now()): boolean {
  return Boolean(
    session.refreshToken && session.expires && session.expires.getTime() - now < RENEW_BEFORE_MS,
  );
}

function stillUsable(session: Session, now = Date.now()): boolean {
  return !session.expires || session.expires.getTime() - now > USABLE_FOR_MS;
}

async function renewOnce(shop: string): Promise<Session> {
  const deadline = Date.now() + HOLD_MS + 5_000;
  for (;;) {
    const lost = await accessLost(shop);
    if (lost) return usableOr(await loadOfflineSession(shop), lost);
    const now = new Date();
    if (await takeTokenRenewal(shop, HOLDER, new Date(now.getTime() + HOLD_MS), now)) {
      try {
        return await renewHeld(shop);
      } finally {
        await releaseTokenRenewal(shop, HOLDER);
      }
    }
    // Another process is renewing: its token is read from storage once it has stored it, and the
    // one in hand is used meanwhile while it is still good.
    const current = await loadOfflineSession(shop);
    if (!dueForRenewal(current) || stillUsable(current)) return current;
    if (Date.now() > deadline) {
      throw new ShopifyTokenRenewalError(
        "Another process of the app has been renewing the Shopify access token for too long; it is tried again shortly.",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}

/** Under the hold: the session is read again (it may have just been renewed), then renewed. */
async function renewHeld(shop: string): Promise<Session> {
  const current = await loadOfflineSession(shop);
  if (!dueForRenewal(current)) return current;
  let renewed: Session;
  try {
    renewed = await requestRenewal(shop, current);
  } catch (error) {
    if (error instanceof ShopifyAccessLostError) {
      await markShopifyAccessLost(shop, error.message);
      return usableOr(current, error);
    }
    if (stillUsable(current)) return current;
    throw error;
  }
  await sessionStorage.storeSession(renewed);
  return renewed;
}

async function accessLost(shop: string): Promise<ShopifyAccessLostError | null> {
  const access = await getShopifyAccess(shop);
  return access.lostAt
    ? new ShopifyAccessLostError(access.reason ?? `Shopify no longer accepts the app's access.`)
    : null;
}

function usableOr(session: Session, error: Error): Session {
  if (stillUsable(session)) return session;
  throw error;
}

const RenewalReply = z.object({
  access_token: z.string().min(1),
  scope: z.string(),
  expires_in: z.number().positive(),
  refresh_token: z.string().min(1),
  refresh_token_expires_in: z.number().positive(),
});

/** One refresh-token grant at Shopify's token endpoint; every failure says what happened. */
async function requestRenewal(shop: string, current: Session): Promise<Session> {
  const domain = parseShopDomain(shop);
  if (domain !== shop) throw new ShopifyTokenRenewalError(`${shop} is not a shop's domain.`);
  const config = env();
  let response: Response;
  try {
    response = await fetch(`https://${domain}/admin/oauth/access_token`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        client_id: config.SHOPIFY_API_KEY,
        client_secret: config.SHOPIFY_API_SECRET,
        grant_type: "refresh_token",
        refresh_token: current.refreshToken,
      }),
      signal: AbortSignal.timeout(RENEWAL_TIMEOUT_MS),
    });
  } catch (error) {
    const why =
      error instanceof Error && error.name === "TimeoutError"
        ? "did not answer within 15 s"
        : "could not be reached";
    throw new ShopifyTokenRenewalError(
      `Shopify ${why} when the app renewed its access token; it is tried again shortly.`,
    );
  }
  const text = await response.text().catch(() => "");
  const body = parseJson(text);
  if (!response.ok) {
    const code = typeof body?.error === "string" ? body.error : null;
    const description = typeof body?.error_description === "string" ? body.error_description : null;
    const said = [code, description].filter(Boolean).join(": ");
    const answer = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}${said ? ` (${said})` : ""}`;
    if (code === "invalid_grant" || code === "invalid_client" || response.status === 401) {
      throw new ShopifyAccessLostError(
        `Shopify refused to renew the app's access to your store (${answer}). ${ACCESS_LOST_ADVICE}`,
      );
    }
    throw new ShopifyTokenRenewalError(
      `Shopify answered ${answer} when the app renewed its access token; it is tried again shortly.`,
    );
  }
  const reply = RenewalReply.safeParse(body);
  if (!reply.success) {
    throw new ShopifyTokenRenewalError(
      `Shopify's answer to the token renewal had no ${reply.error.issues[0]?.path.join(".") ?? "token"}; it is tried again shortly.`,
    );
  }
  const now = Date.now();
  return new Session({
    id: current.id,
    shop,
    state: "",
    isOnline: false,
    accessToken: reply.data.access_token,
    scope: reply.data.scope,
    expires: new Date(now + reply.data.expires_in * 1000),
    refreshToken: reply.data.refresh_token,
    refreshTokenExpires: new Date(now + reply.data.refresh_token_expires_in * 1000),
  });
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
