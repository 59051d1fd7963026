/**
 * The Settings form after the page's data reloads: a field the server changed (by a save, or by
 * Test connection) shows what is stored now, and any other field keeps what the merchant typed.
 * Test connection, Refresh areas and the push switches are forms of their own that reload the
 * data; a form reset to the stored values then dropped the merchant's unsaved edits, and closed
 * the save bar, without a word.
 */
export function keepEdits<T extends object>(current: T, previousStored: T, stored: T): T {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const next = { ...stored };
  for (const key of Object.keys(stored) as (keyof T)[]) {
    if (same(stored[key], previousStored[key])) next[key] = current[key];
  }
  return next;
}
