/**
 * The courier's two free-text fields, `notes` (the order's) and `deliveryAddress.notes`, as the
 * app writes them (ADR 0052). The order's notes start with the delivery's reference, which the
 * app looks for in the courier's history to know whether an order exists (ADR 0018, 0022): it is
 * written whole and first, whatever the shopper typed after it. The shopper's text is cleaned
 * (no control or bidirectional characters, nothing that reads as a reference) and cut to fit.
 */

/**
 * The longest text the app writes in each notes field, in UTF-16 code units. The courier's
 * document names no limit; the sandbox takes this many (sandbox/README.md).
 */
export const NOTES_LIMIT = 500;

const SEPARATOR = " · ";
// eslint-disable-next-line no-control-regex -- control characters are what is taken out
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;
// Embeddings, overrides and isolates: they would show the reference and the text reordered.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
// A token the history search could take for another delivery's reference ("SHPFY-shop-12").
const REFERENCE_LIKE = /SHPFY-/gi;

/** Text a shopper typed, fit for a notes field: one line, no controls, no reference-like token. */
export function shopperText(text: string | null | undefined): string {
  if (typeof text !== "string") return "";
  return text
    .replace(CONTROLS, " ")
    .replace(BIDI_CONTROLS, "")
    .replace(REFERENCE_LIKE, "SHPFY ")
    .replace(/\s+/g, " ")
    .trim();
}

/** `text` in at most `limit` code units, ending "…" when cut, never half a surrogate pair. */
export function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  if (limit <= 1) return "";
  let kept = text.slice(0, limit - 1);
  if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  return `${kept.trimEnd()}…`;
}

/**
 * The order's notes: the reference, the Shopify order's name and the shopper's note (the order's
 * note from checkout), in that order, within {@link NOTES_LIMIT}. Only what follows the
 * reference is ever cut.
 */
export function orderNotes(input: {
  reference: string;
  orderName: string;
  note: string | null;
}): string {
  const nameRoom = NOTES_LIMIT - input.reference.length - SEPARATOR.length;
  const name = cut(`Shopify order ${shopperText(input.orderName)}`, nameRoom);
  const head = name === "" ? input.reference : `${input.reference}${SEPARATOR}${name}`;
  const note = shopperText(input.note);
  const room = NOTES_LIMIT - head.length - SEPARATOR.length;
  if (note === "" || room < 2) return head;
  return `${head}${SEPARATOR}${cut(note, room)}`;
}

/**
 * The shopper's note in order notes {@link orderNotes} wrote for `reference` (for the label), or
 * null when there is none or the notes were not written so.
 */
export function shopperNoteIn(notes: unknown, reference: string): string | null {
  const prefix = `${reference}${SEPARATOR}Shopify order `;
  if (typeof notes !== "string" || !notes.startsWith(prefix)) return null;
  const after = notes.indexOf(SEPARATOR, prefix.length);
  if (after < 0) return null;
  const note = notes.slice(after + SEPARATOR.length).trim();
  return note === "" ? null : note;
}

/**
 * The delivery address's notes: what the courier's form has no field for (the apartment, the
 * PACI number) and the address lines as the shopper typed them (landmarks, directions), within
 * {@link NOTES_LIMIT}.
 */
export function addressNotes(input: {
  apartment: string | null;
  paci: string | null;
  lines: readonly (string | null)[];
}): string {
  const typed = input.lines.map(shopperText).filter(Boolean).join(", ");
  const parts = [
    input.apartment ? `Apartment ${shopperText(input.apartment)}` : "",
    input.paci ? `PACI ${shopperText(input.paci)}` : "",
    typed,
  ].filter(Boolean);
  return cut(parts.join(SEPARATOR), NOTES_LIMIT);
}
