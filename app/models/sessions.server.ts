import prisma, { eraseFromDisk } from "../db.server";
import { env } from "../env.server";
import { isSealedSecret, sealedKeyId, SecretBoxError } from "../security/secret-box";
import {
  openSessionToken,
  sealSessionToken,
  type SessionTokenKind,
} from "../security/sealed-session-storage";

/**
 * Run at boot (web process and `npm run worker`): every Shopify token still stored in plaintext
 * (written before tokens were sealed) or sealed with a key that is no longer the first of
 * ENCRYPTION_KEYS is sealed with the current key. Each row is rewritten only if it still holds what
 * was read, so a token refreshed meanwhile is never overwritten with the old one. Returns how many
 * sessions were sealed again; a token that does not open is left for the storage to ignore.
 */
export async function sealStoredSessions(): Promise<number> {
  const keys = env().ENCRYPTION_KEYS;
  const current = keys[0]?.id;
  const rows = await prisma.session.findMany({
    select: { id: true, shop: true, accessToken: true, refreshToken: true },
  });
  let sealed = 0;
  for (const row of rows) {
    const stale = (value: string | null) =>
      value !== null && value !== "" && sealedKeyOf(value) !== current;
    if (!stale(row.accessToken) && !stale(row.refreshToken)) continue;
    const reseal = (value: string, kind: SessionTokenKind) =>
      sealSessionToken(openSessionToken(value, row.shop, kind, keys), row.shop, kind, [keys[0]!]);
    try {
      const { count } = await prisma.session.updateMany({
        where: { id: row.id, accessToken: row.accessToken, refreshToken: row.refreshToken },
        data: {
          accessToken: row.accessToken ? reseal(row.accessToken, "access-token") : row.accessToken,
          refreshToken: row.refreshToken ? reseal(row.refreshToken, "refresh-token") : null,
        },
      });
      sealed += count;
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
    }
  }
  // The rows' earlier pages, plaintext tokens and all, must not stay in the SQLite log either.
  if (sealed > 0) await eraseFromDisk();
  return sealed;
}

/** The key id of a sealed value; undefined for plaintext. */
function sealedKeyOf(value: string): string | undefined {
  return isSealedSecret(value) ? sealedKeyId(value) : undefined;
}
