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
