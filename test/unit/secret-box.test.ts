import { createCipheriv } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  maskSecret,
  openSecret,
  sealedKeyId,
  sealSecret,
  SecretBoxError,
} from "../../app/security/secret-box";

const k1 = { id: "k1", key: Buffer.alloc(32, 1) };
const k2 = { id: "k2", key: Buffer.alloc(32, 2) };
const context = "shop:alpha.myshopify.com|courier-api-key";

describe("secrets at rest", () => {
  it("round-trips any text, without the plaintext appearing in the sealed form", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (plaintext) => {
        const sealed = sealSecret(plaintext, context, [k1]);
        expect(openSecret(sealed, context, [k1])).toBe(plaintext);
        if (plaintext.length >= 6) expect(sealed).not.toContain(plaintext);
      }),
    );
  });

  it("uses a fresh IV each time, so the same key never seals the same way twice", () => {
    expect(sealSecret("api-key-123", context, [k1])).not.toBe(
      sealSecret("api-key-123", context, [k1]),
    );
  });

  it("does not open under another shop's context", () => {
    const sealed = sealSecret("api-key-123", context, [k1]);
    expect(() => openSecret(sealed, "shop:beta.myshopify.com|courier-api-key", [k1])).toThrow(
      SecretBoxError,
    );
  });

  it("detects tampering with the ciphertext", () => {
    const sealed = sealSecret("api-key-123", context, [k1]);
    const parts = sealed.split(".");
    const ciphertext = Buffer.from(parts[3]!, "base64url");
    ciphertext[0] = ciphertext[0]! ^ 1;
    parts[3] = ciphertext.toString("base64url");
    expect(() => openSecret(parts.join("."), context, [k1])).toThrow(/altered/);
  });

  it.each([1, 4, 8, 12, 15])(
    "refuses an authentication tag cut to %i bytes, which would be far easier to forge",
    (length) => {
      const parts = sealSecret("api-key-123", context, [k1]).split(".");
      parts[4] = Buffer.from(parts[4]!, "base64url").subarray(0, length).toString("base64url");
      expect(() => openSecret(parts.join("."), context, [k1])).toThrow(SecretBoxError);
    },
  );

  it.each([8, 16])("refuses an IV of %i bytes, as the app only ever seals with 12", (length) => {
    // Sealed the way openSecret would read it, so only the IV length is wrong.
    const iv = Buffer.alloc(length, 3);
    const cipher = createCipheriv("aes-256-gcm", k1.key, iv);
    cipher.setAAD(Buffer.from(context, "utf8"));
    const ciphertext = Buffer.concat([cipher.update("api-key-123", "utf8"), cipher.final()]);
    const sealed = ["v1", "k1", iv, ciphertext, cipher.getAuthTag()]
      .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
      .join(".");
    expect(() => openSecret(sealed, context, [k1])).toThrow(SecretBoxError);
  });

  it("encrypts with the first key and still opens secrets sealed by an older one", () => {
    const old = sealSecret("api-key-123", context, [k1]);
    expect(sealedKeyId(sealSecret("x", context, [k2, k1]))).toBe("k2");
    expect(openSecret(old, context, [k2, k1])).toBe("api-key-123");
  });

  it("names the missing key when an old one was removed too early", () => {
    const old = sealSecret("api-key-123", context, [k1]);
    expect(() => openSecret(old, context, [k2])).toThrow(
      /"k1", which is no longer in ENCRYPTION_KEYS/,
    );
  });

  it("masks a key down to its last four characters", () => {
    expect(maskSecret("sk_live_abcdef123456")).toBe("••••••••3456");
    expect(maskSecret("short")).toBe("••••••••");
  });
});
