import { z } from "zod";

/*
 * Reading reply records whose shape the courier does not document: a field is looked up under the
 * names a courier plausibly uses (`areaId`, `id`, `AreaID`...), and its value taken only when it
 * has the expected type, null otherwise.
 */

// A JSON object, passed through untouched (own `__proto__` keys included).
export const jsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  { error: "expected an object" },
);

const keyOf = (name: string) => name.toLowerCase().replace(/[_\-\s]/g, "");

const normalizedNames = new Map<string, string>();
function normalizedName(name: string): string {
  let key = normalizedNames.get(name);
  if (key === undefined) {
    key = keyOf(name);
    normalizedNames.set(name, key);
  }
  return key;
}

const present = (value: unknown) => value !== undefined && value !== null;

/**
 * The first of `names`, in that order of preference, present (not null) in `raw`, with keys
 * compared without case, `_` or `-`.
 */
export function pickField(raw: Record<string, unknown>, names: readonly string[]): unknown {
  // The preferred name spelt exactly is the common case, and needs no normalizing.
  const preferred = names[0];
  if (preferred !== undefined && Object.hasOwn(raw, preferred) && present(raw[preferred]))
    return raw[preferred];
  const keys = Object.keys(raw);
  const normalized = keys.map(keyOf);
  for (const name of names) {
    const wanted = normalizedName(name);
    for (let i = 0; i < keys.length; i++) {
      if (normalized[i] !== wanted) continue;
      const value = raw[keys[i] as string];
      if (present(value)) return value;
    }
  }
  return undefined;
}

export function asInt(value: unknown): number | null {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string" && /^\s*-?\d{1,15}\s*$/.test(value)) return Number(value);
  return null;
}

export function asText(value: unknown): string | null {
  if (typeof value === "string") return value.trim() === "" ? null : value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

export function asNumber(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

// A status may be a code, or an object such as `{ code, name }`.
export function asStatus(value: unknown): string | null {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return asText(
      pickField(value as Record<string, unknown>, ["code", "statusCode", "status", "name"]),
    );
  }
  return asText(value);
}

const LIST_KEYS = ["items", "data", "list", "records", "results", "orders", "rows"];

// An array, or an object wrapping exactly the array (`{ items: [...] }`).
export function listOf<T extends z.ZodType>(element: T) {
  return z.preprocess(
    (value) => {
      if (Array.isArray(value) || typeof value !== "object" || value === null) return value;
      const inner = pickField(value as Record<string, unknown>, LIST_KEYS);
      return Array.isArray(inner) ? inner : value;
    },
    z.array(element, { error: "expected a list" }),
  );
}
