import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Secrets at rest: AES-256-GCM with a random 96-bit IV, the id of the key that encrypted it kept
 * beside the ciphertext (so keys can rotate), and a context — the shop and the purpose — bound as
 * associated data, so a ciphertext copied to another shop's row does not decrypt.
 *
 * Format: `v1.<keyId>.<iv>.<ciphertext>.<tag>`, base64url parts.
 */
export interface EncryptionKey {
  id: string;
  key: Buffer;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function sealSecret(
  plaintext: string,
  context: string,
  keys: readonly EncryptionKey[],
): string {
  const primary = keys[0];
  if (!primary) throw new SecretBoxError("No encryption key is configured (ENCRYPTION_KEYS).");
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", primary.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, primary.id, iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

export function openSecret(
  sealed: string,
  context: string,
  keys: readonly EncryptionKey[],
): string {
  const [version, keyId, iv, ciphertext, tag, ...rest] = sealed.split(".");
  if (version !== VERSION || !keyId || !iv || ciphertext === undefined || !tag || rest.length > 0) {
    throw new SecretBoxError("The stored secret is not in a format this app can read.");
  }
  const key = keys.find((k) => k.id === keyId);
  if (!key) {
    throw new SecretBoxError(
      `The stored secret was encrypted with key "${keyId}", which is no longer in ENCRYPTION_KEYS.`,
    );
  }
  try {
    const ivBytes = Buffer.from(iv, "base64url");
    if (ivBytes.length !== IV_BYTES) throw new RangeError("wrong IV length");
    // Without authTagLength, GCM accepts a tag cut to as little as 4 bytes: far easier to forge.
    const decipher = createDecipheriv("aes-256-gcm", key.key, ivBytes, {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertext, "base64url")),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    throw new SecretBoxError(
      "The stored secret does not decrypt: it was altered or belongs elsewhere.",
    );
  }
}

/** The id of the key a sealed secret was encrypted with (for rotation). */
export function sealedKeyId(sealed: string): string | undefined {
  return sealed.split(".")[1];
}

/** Shows the last four characters only: enough to recognise a key, useless to anyone else. */
export function maskSecret(secret: string): string {
  const tail = secret.length > 8 ? secret.slice(-4) : "";
  return `••••••••${tail}`;
}

const SEALED = /^v1\.[A-Za-z0-9_-]{1,32}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/;

/** Whether a stored value is in the sealed format (a plaintext Shopify token never is). */
export function isSealedSecret(value: string): boolean {
  return SEALED.test(value);
}
