import { describe, expect, it } from "vitest";
import { keepEdits } from "../../app/components/settings/keep-edits";

const stored = { preparationMinutes: "60", autoSend: true, mappings: { a: { state: "x" } } };

describe("the Settings form when the page's data reloads", () => {
  it("keeps an edit not saved yet when another form (Test connection) reloads the data", () => {
    const edited = { ...stored, preparationMinutes: "90" };
    // Test connection changed nothing the form holds: the data reloads the same.
    expect(keepEdits(edited, stored, { ...stored })).toEqual(edited);
  });

  it("shows what is stored now in the fields the merchant did not touch", () => {
    const edited = { ...stored, preparationMinutes: "90" };
    const nowStored = { ...stored, autoSend: false };
    expect(keepEdits(edited, stored, nowStored)).toEqual({
      ...stored,
      preparationMinutes: "90",
      autoSend: false,
    });
  });

  it("has nothing left unsaved once the edit is saved", () => {
    const edited = { ...stored, mappings: { a: { state: "y" } } };
    const afterSave = { ...edited };
    expect(keepEdits(edited, stored, afterSave)).toEqual(afterSave);
  });
});
