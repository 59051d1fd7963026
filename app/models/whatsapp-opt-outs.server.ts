import { createHmac, hkdfSync } from "node:crypto";
import prisma from "../db.server";
import { env } from "../env.server";
import type { EncryptionKey } from "../security/secret-box";

/**
 * Shoppers who asked this shop for no more WhatsApp messages. The number itself is never stored:
 * a row holds an HMAC-SHA256 of its digits under a key derived from the app's encryption key
 * (HKDF, its own label), the shop inside the MAC so two shops' digests of one number differ.
 */

export type OptOutSource = "stop_reply" | "meta_131050" | "shopper_page";

const digestKeys = new WeakMap<Buffer, Buffer>();

function digestKey(key: EncryptionKey): Buffer {
  let derived = digestKeys.get(key.key);
  if (!derived) {
    derived = Buffer.from(hkdfSync("sha256", key.key, "", "whatsapp-opt-out-digest", 32));
    digestKeys.set(key.key, derived);
  }
  return derived;
}

const digitsOf = (phone: string) => phone.replace(/\D/g, "");

function digestUnder(key: EncryptionKey, shop: string, phone: string): string {
  return createHmac("sha256", digestKey(key))
    .update(`${shop}\n${digitsOf(phone)}`)
    .digest("base64url");
}

/** The opt-out digest of a number for a shop, under the current encryption key. */
export function optOutDigest(shop: string, phone: string): string {
  const primary = env().ENCRYPTION_KEYS[0];
  if (!primary) throw new Error("No encryption key is configured (ENCRYPTION_KEYS).");
  return digestUnder(primary, shop, phone);
}

/** True when the shopper of this number asked the shop for no more messages. */
export async function isOptedOut(shop: string, phone: string): Promise<boolean> {
  if (digitsOf(phone) === "") return false;
  // Every key still configured: an opt-out recorded before a key rotation still counts.
  const digests = env().ENCRYPTION_KEYS.map((key) => digestUnder(key, shop, phone));
  const found = await prisma.whatsAppOptOut.findFirst({
    where: { shop, phoneDigest: { in: digests } },
    select: { shop: true },
  });
  return found !== null;
}

/** Records an opt-out; the first one of a number is kept (a replay changes nothing). */
export async function recordOptOut(
  shop: string,
  phone: string,
  source: OptOutSource,
  at: Date,
): Promise<void> {
  if (digitsOf(phone) === "") return;
  const phoneDigest = optOutDigest(shop, phone);
  await prisma.whatsAppOptOut.upsert({
    where: { shop_phoneDigest: { shop, phoneDigest } },
    create: { shop, phoneDigest, source, at },
    update: {},
  });
}
