import { randomBytes } from "node:crypto";

/** DateTime as Prisma's SQLite adapter writes it (ISO 8601, "+00:00"), so rows read back alike. */
export function sqliteTime(at: Date): string {
  return at.toISOString().replace("Z", "+00:00");
}

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * A row id shaped like Prisma's cuid ("c" and 24 lowercase base-36 characters): a time prefix so
 * ids sort roughly by creation, then 16 random characters (about 82 bits), so a delivery id in a
 * public tracking URL cannot be guessed.
 */
export function newRowId(now = Date.now()): string {
  const time = now.toString(36).padStart(8, "0").slice(-8);
  let random = "";
  for (const byte of randomBytes(16)) random += ALPHABET[byte % 36];
  return `c${time}${random}`;
}
