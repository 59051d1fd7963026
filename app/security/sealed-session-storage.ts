import { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import {
  isSealedSecret,
  openSecret,
  sealSecret,
  SecretBoxError,
  type EncryptionKey,
} from "./secret-box";

/**
 * Shopify sessions with their access and refresh tokens sealed at rest (ADR 0012), around any
 * session storage — the Prisma one on SQLite or PostgreSQL alike. The tokens are sealed like the
 * courier key (AES-256-GCM, key id inside for rotation) with the shop and the token's kind bound as
 * associated data, so a token copied into another shop's row, or an access token put in the
 * refresh token's place, does not open. The interface stays the library's own, so anything that
 * wraps a session storage (single-flight refresh) wraps this one.
 *
 * Reading: a plaintext token (a row written before sealing, until `sealStoredSessions` runs at
 * boot) is returned as it is; a sealed token that no longer opens (its key was removed from
 * ENCRYPTION_KEYS) makes the session unknown, so the app gets a new one by token exchange instead
 * of failing every request.
 */
export class SealedSessionStorage implements SessionStorage {
  constructor(
    private readonly inner: SessionStorage,
    private readonly keys: () => readonly EncryptionKey[],
  ) {}

  storeSession(session: Session): Promise<boolean> {
    return this.inner.storeSession(sealSessionTokens(session, this.keys()));
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const stored = await this.inner.loadSession(id);
    return stored ? this.open(stored) : undefined;
  }

  deleteSession(id: string): Promise<boolean> {
    return this.inner.deleteSession(id);
  }

  deleteSessions(ids: string[]): Promise<boolean> {
    return this.inner.deleteSessions(ids);
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    const stored = await this.inner.findSessionsByShop(shop);
    return stored.map((s) => this.open(s)).filter((s): s is Session => s !== undefined);
  }

  private open(session: Session): Session | undefined {
    try {
      return openSessionTokens(session, this.keys());
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      console.warn(
        `The stored Shopify token of ${session.shop} does not decrypt (${error.message}); the session is ignored and a new one will be obtained.`,
      );
      return undefined;
    }
  }
}

export type SessionTokenKind = "access-token" | "refresh-token";

/** The associated data a session token is sealed with: its shop and its kind. */
export function sessionTokenContext(shop: string, kind: SessionTokenKind): string {
  return `shop:${shop}|shopify-${kind}`;
}

/** Seals a plaintext token; a sealed one is left as it is. */
export function sealSessionToken(
  value: string,
  shop: string,
  kind: SessionTokenKind,
  keys: readonly EncryptionKey[],
): string {
  return isSealedSecret(value) ? value : sealSecret(value, sessionTokenContext(shop, kind), keys);
}

/** Opens a sealed token; a plaintext one (written before sealing) is returned as it is. */
export function openSessionToken(
  value: string,
  shop: string,
  kind: SessionTokenKind,
  keys: readonly EncryptionKey[],
): string {
  return isSealedSecret(value) ? openSecret(value, sessionTokenContext(shop, kind), keys) : value;
}

function withTokens(session: Session, map: (value: string, kind: SessionTokenKind) => string) {
  const copy = new Session(session.toObject());
  if (session.accessToken) copy.accessToken = map(session.accessToken, "access-token");
  if (session.refreshToken) copy.refreshToken = map(session.refreshToken, "refresh-token");
  return copy;
}

function sealSessionTokens(session: Session, keys: readonly EncryptionKey[]): Session {
  return withTokens(session, (value, kind) => sealSessionToken(value, session.shop, kind, keys));
}

function openSessionTokens(session: Session, keys: readonly EncryptionKey[]): Session {
  return withTokens(session, (value, kind) => openSessionToken(value, session.shop, kind, keys));
}
