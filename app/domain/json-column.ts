import type { z } from "zod";

/**
 * JSON kept in a text column: one zod schema per column, written with `encode` and read back
 * with `decode` where rows enter the app (the models). A stored text that is not JSON, or not of
 * the column's shape (a hand edit, a bug, a shape no longer written), decodes to
 * {@link Unreadable} instead of throwing: each reader decides what that means for it (the worker
 * asks the merchant, a page shows what it can).
 */
export class Unreadable {
  constructor(
    /** `Table.column`, for messages and logs. */
    readonly column: string,
    /** What is wrong with it, in a short phrase. */
    readonly problem: string,
    /** The stored value: its JSON when it was JSON, else its text. */
    readonly stored: unknown,
  ) {}
}

/** `T` is what a read gives, `W` what a write takes (the same but for the request column). */
export interface JsonColumn<T, W = T> {
  readonly column: string;
  /** The text to store for `value`. */
  encode(value: W): string;
  /** The stored text read back. */
  decode(text: string): T | Unreadable;
  /** The same for a nullable column: null stays null. */
  decodeNullable(text: string | null): T | Unreadable | null;
}

/** The codec of one JSON text column whose values `schema` describes. */
export function jsonColumn<S extends z.ZodType, W = z.output<S>>(
  column: string,
  schema: S,
): JsonColumn<z.output<S>, W> {
  const decode = (text: string): z.output<S> | Unreadable => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return new Unreadable(column, "not JSON", text);
    }
    const parsed = schema.safeParse(json);
    return parsed.success
      ? parsed.data
      : new Unreadable(column, describeIssues(parsed.error), json);
  };
  return {
    column,
    encode: (value) => JSON.stringify(value),
    decode,
    decodeNullable: (text) => (text === null ? null : decode(text)),
  };
}

/** The first issue with where it is ("deliveryAddress.contactPhone: …"), and how many more. */
function describeIssues(error: z.ZodError): string {
  return describe(error.issues, []);
}

function describe(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[]): string {
  const [first, ...rest] = issues;
  if (!first) return "not of the expected shape";
  const path = [...prefix, ...first.path];
  // A union that matched no branch: why its first branch did not.
  if (first.code === "invalid_union" && first.errors[0]?.length) {
    return describe(first.errors[0], path);
  }
  const where = path.map(String).join(".");
  const more = rest.length > 0 ? ` (and ${rest.length} more)` : "";
  return `${where ? `${where}: ` : ""}${first.message}${more}`;
}
