import { randomBytes } from "node:crypto";
import prisma from "../db.server";
import { env } from "../env.server";
import { openSecret, SecretBoxError, sealSecret } from "../security/secret-box";
import { firstTimeWebhook } from "./deliveries.server";

/**
 * The courier's status pushes: each shop's push URL token and signing secret (sealed at rest),
 * and the event ids already applied. Every query is scoped by shop, but finding the shop of a
 * push token.
 */

const secretContext = (shop: string) => `shop:${shop}|courier-webhook-secret`;

export interface PushCredentials {
  token: string;
  secret: string;
}

/** Turns pushes on (or gives a new URL and secret: the old ones stop working at once). */
export async function createPushCredentials(shop: string): Promise<PushCredentials> {
  const token = randomBytes(18).toString("base64url");
  const secret = randomBytes(24).toString("base64url");
  await prisma.shopSettings.update({
    where: { shop },
    data: {
      courierWebhookToken: token,
      courierWebhookSecretSealed: sealSecret(secret, secretContext(shop), env().ENCRYPTION_KEYS),
    },
  });
  return { token, secret };
}

export async function removePushCredentials(shop: string) {
  await prisma.shopSettings.update({
    where: { shop },
    data: { courierWebhookToken: null, courierWebhookSecretSealed: null },
  });
}

/**
 * The shop's push URL token and secret, or null when pushes are off. The secret is null when it
 * can no longer be decrypted (the app's encryption keys changed): new credentials replace it.
 */
export async function readPushCredentials(
  shop: string,
): Promise<{ token: string; secret: string | null } | null> {
  const settings = await prisma.shopSettings.findUnique({
    where: { shop },
    select: { courierWebhookToken: true, courierWebhookSecretSealed: true },
  });
  if (!settings?.courierWebhookToken || !settings.courierWebhookSecretSealed) return null;
  let secret: string | null;
  try {
    secret = openSecret(
      settings.courierWebhookSecretSealed,
      secretContext(shop),
      env().ENCRYPTION_KEYS,
    );
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    secret = null;
  }
  return { token: settings.courierWebhookToken, secret };
}

/** Which installed shop a push URL belongs to, with its secret. */
export async function shopForPushToken(
  token: string,
): Promise<{ shop: string; secret: string | null } | null> {
  const settings = await prisma.shopSettings.findUnique({
    where: { courierWebhookToken: token },
    select: { shop: true, uninstalledAt: true, courierWebhookSecretSealed: true },
  });
  if (!settings || settings.uninstalledAt || !settings.courierWebhookSecretSealed) return null;
  try {
    const secret = openSecret(
      settings.courierWebhookSecretSealed,
      secretContext(settings.shop),
      env().ENCRYPTION_KEYS,
    );
    return { shop: settings.shop, secret };
  } catch (error) {
    // Sealed with an encryption key the app no longer has: no push can be verified until the
    // merchant makes a new URL and secret (Settings says so); polling carries on meanwhile.
    if (error instanceof SecretBoxError) return { shop: settings.shop, secret: null };
    throw error;
  }
}

const PUSH_TOPIC = "courier/status";

/** Whether a push with this event id was applied already. */
export async function pushEventSeen(shop: string, eventId: string): Promise<boolean> {
  const seen = await prisma.processedWebhook.findUnique({
    where: { shop_webhookId: { shop, webhookId: eventId } },
    select: { topic: true },
  });
  return seen !== null;
}

/** Remembers an applied push (a redelivery racing it may have been first: that is fine). */
export async function rememberPushEvent(shop: string, eventId: string): Promise<void> {
  await firstTimeWebhook(shop, eventId, PUSH_TOPIC);
}
