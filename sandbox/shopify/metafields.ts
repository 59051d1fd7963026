import type { MetafieldInput, Outcome, StandInMetafield, UserErrorRecord } from "./records";

// Metafields on orders, written by orderUpdate's `metafields` and read by Order.metafield(s).

/** The namespace Shopify reserves for the requesting app: `$app` and an omitted namespace. */
export function appNamespace(appId: number, namespace: string | null | undefined): string {
  if (namespace === null || namespace === undefined || namespace === "$app") return `app--${appId}`;
  return namespace.startsWith("$app:") ? `app--${appId}--${namespace.slice(5)}` : namespace;
}

const NAME = /^[A-Za-z0-9_-]+$/;

// What a value of each type must look like. Types Shopify has that are not listed here (colors,
// references, measurements, lists...) are stored without checking their value.
const VALUE_CHECKS: Record<string, (value: string) => string | null> = {
  single_line_text_field: (v) =>
    /[\r\n]/.test(v) ? "Value must be a single line text string." : null,
  multi_line_text_field: () => null,
  json: (v) => {
    try {
      JSON.parse(v);
      return null;
    } catch {
      return "Value is invalid JSON.";
    }
  },
  boolean: (v) => (v === "true" || v === "false" ? null : "Value must be true or false."),
  number_integer: (v) => (/^-?\d+$/.test(v) ? null : "Value must be an integer."),
  number_decimal: (v) => (/^-?\d+(\.\d+)?$/.test(v) ? null : "Value must be a decimal."),
  date: (v) =>
    /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v))
      ? null
      : "Value must be in YYYY-MM-DD format.",
  date_time: (v) =>
    /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))
      ? null
      : "Value must be in YYYY-MM-DDTHH:MM:SS format.",
  url: (v) => (/^(https?|mailto|sms|tel):/.test(v) ? null : "Value must be a valid URL."),
};
const OTHER_TYPES = new Set([
  "color",
  "dimension",
  "id",
  "link",
  "money",
  "rating",
  "rich_text_field",
  "volume",
  "weight",
  "collection_reference",
  "customer_reference",
  "file_reference",
  "metaobject_reference",
  "mixed_reference",
  "page_reference",
  "product_reference",
  "variant_reference",
]);

function knownType(type: string): boolean {
  const single = type.startsWith("list.") ? type.slice(5) : type;
  return single in VALUE_CHECKS || OTHER_TYPES.has(single);
}

/** One metafield to write: `target` is the one it updates, null for a new one. */
export interface MetafieldChange {
  target: StandInMetafield | null;
  namespace: string;
  key: string;
  type: string;
  value: string;
}

/**
 * What `inputs` would write over `existing`, or every user error Shopify would give, each
 * pointing at its input (`["metafields", "0", "value"]`). Nothing is changed here.
 */
export function plannedMetafields(
  existing: readonly StandInMetafield[],
  inputs: readonly MetafieldInput[],
  appId: number,
): Outcome<MetafieldChange[]> {
  const userErrors: UserErrorRecord[] = [];
  const changes: MetafieldChange[] = [];
  inputs.forEach((input, index) => {
    const at = (name: string) => ["metafields", String(index), name];
    const errorsBefore = userErrors.length;
    const byId = input.id ? existing.find((m) => m.id === input.id) : undefined;
    if (input.id && !byId) {
      userErrors.push({ field: at("id"), message: "Metafield does not exist." });
      return;
    }
    const namespace = byId?.namespace ?? appNamespace(appId, input.namespace);
    const key = byId?.key ?? input.key ?? "";
    if (!byId) {
      if (namespace.length < 3 || namespace.length > 255) {
        userErrors.push({
          field: at("namespace"),
          message: "Namespace must be between 3 and 255 characters.",
        });
      } else if (!NAME.test(namespace)) {
        userErrors.push({
          field: at("namespace"),
          message: "Namespace contains one or more invalid characters.",
        });
      }
      if (key.length < 2 || key.length > 64) {
        userErrors.push({ field: at("key"), message: "Key must be between 2 and 64 characters." });
      } else if (!NAME.test(key)) {
        userErrors.push({
          field: at("key"),
          message: "Key contains one or more invalid characters.",
        });
      }
    }
    const target = byId ?? existing.find((m) => m.namespace === namespace && m.key === key) ?? null;
    const type = input.type ?? target?.type;
    if (!type) userErrors.push({ field: at("type"), message: "Type can't be blank." });
    else if (!knownType(type)) {
      userErrors.push({
        field: at("type"),
        message: `Type '${type}' is not a valid metafield type.`,
      });
    } else if (target && type !== target.type) {
      userErrors.push({
        field: at("type"),
        message: `Type must be the same as the existing metafield's type (${target.type}).`,
      });
    }
    const value = input.value;
    if (value === null || value === undefined || value === "") {
      userErrors.push({ field: at("value"), message: "Value can't be blank." });
    } else if (type && userErrors.length === errorsBefore) {
      const problem = VALUE_CHECKS[type]?.(value) ?? null;
      if (problem) userErrors.push({ field: at("value"), message: problem });
    }
    if (userErrors.length === errorsBefore && type && value) {
      changes.push({ target, namespace, key, type, value });
    }
  });
  return userErrors.length > 0 ? { ok: false, userErrors } : { ok: true, value: changes };
}
