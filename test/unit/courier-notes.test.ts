import { describe, expect, it } from "vitest";
import {
  addressNotes,
  NOTES_LIMIT,
  orderNotes,
  shopperNoteIn,
} from "../../app/domain/courier-notes";
import { notesCarryReference } from "../../app/domain/request";

// The courier's notes fields (ADR 0052): the reference whole and first, the shopper's words after.
const reference = "SHPFY-dar-abaya-5550001";
const notesOf = (note: string | null) => orderNotes({ reference, orderName: "#1042", note });

describe("the order's notes for the courier", () => {
  it("carry the shopper's note after the reference and the order's name", () => {
    // The order's note never reached the courier (issue 24).
    expect(notesOf("Please call before delivery")).toBe(
      "SHPFY-dar-abaya-5550001 · Shopify order #1042 · Please call before delivery",
    );
  });

  it("are as before for an order without a note", () => {
    expect(notesOf(null)).toBe("SHPFY-dar-abaya-5550001 · Shopify order #1042");
    expect(notesOf("  \n ")).toBe("SHPFY-dar-abaya-5550001 · Shopify order #1042");
  });

  it("keep the reference whole and first however long the note, within the limit", () => {
    const notes = notesOf("اتصل قبل التوصيل ".repeat(400));
    expect(notes.length).toBeLessThanOrEqual(NOTES_LIMIT);
    expect(notes.startsWith(`${reference} · Shopify order #1042 · اتصل`)).toBe(true);
    expect(notes.endsWith("…")).toBe(true);
    expect(notesCarryReference(notes, reference)).toBe(true);
  });

  it("never cut a character written as two code units in half", () => {
    const notes = notesOf("😀".repeat(400));
    expect(notes.length).toBeLessThanOrEqual(NOTES_LIMIT);
    expect(notes).not.toMatch(/[\uD800-\uDBFF]…$/);
  });

  it("take no line breaks, controls or bidirectional overrides from the shopper", () => {
    const notes = notesOf("Gate 2\r\n\tring\u0000 twice \u202Eesuoh\u202C");
    expect(notes).toBe(`${reference} · Shopify order #1042 · Gate 2 ring twice esuoh`);
  });

  it("give a reference typed by the shopper no hold on another delivery's history search", () => {
    const other = "SHPFY-dar-abaya-5550002";
    const notes = notesOf(`same as ${other} please`);
    expect(notesCarryReference(notes, other)).toBe(false);
    expect(notes).not.toContain(other);
    expect(notesCarryReference(notes, reference)).toBe(true);
  });

  it("give the shopper's note back for the label", () => {
    expect(shopperNoteIn(notesOf("Leave it with the guard"), reference)).toBe(
      "Leave it with the guard",
    );
    expect(shopperNoteIn(notesOf(null), reference)).toBeNull();
    expect(shopperNoteIn("something else", reference)).toBeNull();
  });
});

describe("the delivery address's notes for the courier", () => {
  it("carry the apartment, the PACI number and the address lines, cleaned and within the limit", () => {
    const notes = addressNotes({
      apartment: "5",
      paci: "12345678",
      lines: ["near the co-op,\nbehind the mosque", "x".repeat(800)],
    });
    expect(
      notes.startsWith("Apartment 5 · PACI 12345678 · near the co-op, behind the mosque, x"),
    ).toBe(true);
    expect(notes.length).toBe(NOTES_LIMIT);
  });
});
