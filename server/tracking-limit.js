// The public tracking page answers anyone who has a link, so each client may only try so many
// links a minute: a customer reloading their parcel's page stays far below it, a script walking
// through guesses is stopped (ADR 0012). The count lives in this process's memory; several
// instances behind a load balancer each count their own share, unless a shared store is plugged in
// (express-rate-limit's PostgreSQL and Redis stores), see README "Security".
import { rateLimit } from "express-rate-limit";

export const TRACKING_LOOKUPS_PER_MINUTE = 30;

/** At most `limit` requests a minute from one client, then 429 with `message` and RateLimit. */
function perMinute(limit, message) {
  return rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    statusCode: 429,
    message,
  });
}

export function trackingRateLimit({ limit = TRACKING_LOOKUPS_PER_MINUTE } = {}) {
  // Before any page runs, so in both of the page's languages.
  return perMinute(
    limit,
    "Too many tracking look-ups from your address. Try again in a minute.\n" +
      "طلبات تتبع كثيرة جدًا من عنوانك. حاول مرة أخرى بعد دقيقة.",
  );
}

// Meta's WhatsApp callbacks (/whatsapp/webhooks/<token>): far more than a busy shop's statuses
// from one of Meta's addresses, and a cap on a script guessing callback tokens. Meta retries a
// refused callback for days, so a burst past it is delayed, not lost.
export const WHATSAPP_CALLBACKS_PER_MINUTE = 1200;

export function whatsAppCallbackRateLimit({ limit = WHATSAPP_CALLBACKS_PER_MINUTE } = {}) {
  return perMinute(limit, "Too many requests. Try again in a minute.");
}

// Shopify's rate requests (/checkout/rates/<token>) come from Shopify's own servers on behalf of
// every shopper of every shop: a high ceiling (Shopify shortens its timeout above 3,000 requests a
// minute per shop), still a cap on one client walking through guessed callback tokens.
export const CHECKOUT_RATE_REQUESTS_PER_MINUTE = 30_000;

export function checkoutRatesRateLimit({ limit = CHECKOUT_RATE_REQUESTS_PER_MINUTE } = {}) {
  return perMinute(limit, { error: "Too many requests. Try again in a minute." });
}
