import fs from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import type { UserErrorRecord } from "./records";

/**
 * Shopify Flow as far as the stand-in needs it: the app's trigger definitions, read from its
 * `extensions/*\/shopify.extension.toml` as Shopify would have them after `shopify app deploy`,
 * and flowTriggerReceive checked against them (a handle the app does not define, a payload field
 * missing, extra or of the wrong type are refused with userErrors, as Flow refuses them).
 */
export interface FlowTriggerDefinition {
  handle: string;
  /** Payload keys and their Flow field types; an order reference is `order_id`. */
  fields: Map<string, string>;
}

export interface ReceivedFlowTrigger {
  handle: string;
  payload: Record<string, unknown>;
  at: Date;
}

const REFERENCE_KEYS: Record<string, string> = {
  order_reference: "order_id",
  customer_reference: "customer_id",
  product_reference: "product_id",
};

export function flowTriggersFromExtensions(
  dir = path.resolve(import.meta.dirname, "..", "..", "extensions"),
): Map<string, FlowTriggerDefinition> {
  const definitions = new Map<string, FlowTriggerDefinition>();
  if (!fs.existsSync(dir)) return definitions;
  for (const entry of fs.readdirSync(dir)) {
    const file = path.join(dir, entry, "shopify.extension.toml");
    if (!fs.existsSync(file)) continue;
    const config = parse(fs.readFileSync(file, "utf8")) as {
      extensions?: { type?: string; handle?: string }[];
      settings?: { fields?: { type?: string; key?: string }[] };
    };
    for (const extension of config.extensions ?? []) {
      if (extension.type !== "flow_trigger" || !extension.handle) continue;
      const fields = new Map<string, string>();
      for (const field of config.settings?.fields ?? []) {
        const type = String(field.type);
        const key = REFERENCE_KEYS[type] ?? field.key;
        if (key) fields.set(key, type);
      }
      definitions.set(extension.handle, { handle: extension.handle, fields });
    }
  }
  return definitions;
}

function typeProblem(type: string, value: unknown): string | null {
  if (type in REFERENCE_KEYS)
    return typeof value === "number" && Number.isInteger(value) && value > 0
      ? null
      : "must be the resource's numeric id";
  if (type === "number_integer") return Number.isInteger(value) ? null : "must be an integer";
  if (type === "boolean") return typeof value === "boolean" ? null : "must be true or false";
  return typeof value === "string" ? null : "must be text";
}

export function checkFlowTrigger(
  definitions: Map<string, FlowTriggerDefinition>,
  handle: unknown,
  payload: unknown,
): UserErrorRecord[] {
  if (typeof handle !== "string" || !definitions.has(handle))
    return [{ field: ["handle"], message: `Trigger handle ${String(handle)} does not exist.` }];
  if (typeof payload !== "object" || payload === null || Array.isArray(payload))
    return [{ field: ["payload"], message: "Payload must be an object." }];
  const definition = definitions.get(handle)!;
  const errors: UserErrorRecord[] = [];
  const given = payload as Record<string, unknown>;
  for (const [key, type] of definition.fields) {
    if (!(key in given) || given[key] === null) {
      errors.push({ field: ["payload", key], message: `${key} is missing.` });
      continue;
    }
    const problem = typeProblem(type, given[key]);
    if (problem) errors.push({ field: ["payload", key], message: `${key} ${problem}.` });
  }
  for (const key of Object.keys(given)) {
    if (!definition.fields.has(key))
      errors.push({ field: ["payload", key], message: `${key} is not a field of ${handle}.` });
  }
  return errors;
}
