import { z } from "zod";
import type { CourierEndpoint } from "./endpoints";
import { CourierValidationError, type CourierFieldError } from "./errors";
import {
  formatKuwaitDate,
  formatKuwaitDateTime,
  parseKuwaitDateTime,
  parseZonedDateTime,
  roundCoordinate,
  roundKwd,
} from "./format";
import {
  normalizeContactPhone,
  normalizeContactPhoneAnyCountry,
  normalizeCountryCode,
} from "./phone";

/*
 * Request bodies as the courier's document writes them. What the document specifies is enforced
 * (integer ids, `+` country code, digits-only phone, local pickup time, numbers for coordinates and
 * money); what it leaves open (which fields are required, payment codes) is not guessed at: text
 * fields may be empty and are always sent, so the body has every documented key like the sample.
 * Unknown keys are refused, so a misspelt field is caught instead of silently dropped.
 */

const text = z
  .string()
  .trim()
  .nullish()
  .transform((value) => value ?? "");

const masterId = (name: string) =>
  z
    .int({ error: `${name} must be a whole number taken from the courier's master data` })
    .positive({ error: `${name} must be a positive id from the courier's master data` });

// A non-negative decimal, also from text such as Shopify's "12.500".
const decimal = (name: string) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d+(\.\d+)?$/)
          .transform(Number),
      ],
      {
        error: `${name} must be a number`,
      },
    )
    .pipe(
      z
        .number()
        .refine(Number.isFinite, `${name} must be a finite number`)
        .refine((n) => n >= 0, `${name} must not be negative`),
    );

const coordinate = (name: string, limit: number) =>
  z
    .number({ error: `${name} must be a number of decimal degrees` })
    .refine(Number.isFinite, `${name} must be a finite number`)
    .refine((n) => Math.abs(n) <= limit, `${name} must be between -${limit} and ${limit}`);

/** An address on the wire (pickupAddress, deliveryAddress). */
export interface CourierAddress {
  governanceId: number;
  areaId: number;
  block: string;
  street: string;
  office: string;
  floor: string;
  house: string;
  avenue: string;
  building: string;
  contactCountryCode: string;
  contactName: string;
  contactPhone: string;
  latitude?: number;
  longitude?: number;
  notes: string;
}

export const addressSchema = z
  .strictObject({
    governanceId: masterId("governanceId"),
    areaId: masterId("areaId"),
    block: text,
    street: text,
    office: text,
    floor: text,
    house: text,
    avenue: text,
    building: text,
    contactCountryCode: z.string().optional(),
    contactName: z.string().trim().min(1, "contactName is required: the person the courier calls"),
    contactPhone: z.string({ error: "contactPhone must be text" }),
    latitude: coordinate("latitude", 90).optional(),
    longitude: coordinate("longitude", 180).optional(),
    notes: text,
  })
  .transform((address, ctx): CourierAddress => {
    // Without a country code, a number in international form carries its own (Shopify's
    // addresses have none); any other is Kuwaiti.
    const phone =
      address.contactCountryCode === undefined
        ? normalizeContactPhoneAnyCountry(address.contactPhone)
        : normalizeContactPhone(address.contactPhone, address.contactCountryCode);
    if (!phone.ok) {
      const wrongCode =
        address.contactCountryCode !== undefined &&
        normalizeCountryCode(address.contactCountryCode) === null;
      ctx.addIssue({
        code: "custom",
        path: [wrongCode ? "contactCountryCode" : "contactPhone"],
        message: phone.message,
      });
      return z.NEVER;
    }
    if ((address.latitude === undefined) !== (address.longitude === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [address.latitude === undefined ? "latitude" : "longitude"],
        message: "latitude and longitude go together: give both or neither",
      });
      return z.NEVER;
    }
    const { latitude, longitude } = address;
    return {
      governanceId: address.governanceId,
      areaId: address.areaId,
      block: address.block,
      street: address.street,
      office: address.office,
      floor: address.floor,
      house: address.house,
      avenue: address.avenue,
      building: address.building,
      contactCountryCode: phone.contactCountryCode,
      contactName: address.contactName,
      contactPhone: phone.contactPhone,
      ...(latitude !== undefined && longitude !== undefined
        ? { latitude: roundCoordinate(latitude), longitude: roundCoordinate(longitude) }
        : {}),
      notes: address.notes,
    };
  });

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/;

// A Date, a Kuwait local date-time, or an ISO instant with an offset (converted to Kuwait time);
// always sent as `YYYY-MM-DDTHH:MM:SS`.
const pickupDate = z.union([z.date(), z.string()]).transform((value, ctx) => {
  let instant: Date | null;
  if (value instanceof Date) {
    instant = value;
  } else {
    const trimmed = value.trim();
    if (LOCAL_DATE_TIME.test(trimmed) && parseKuwaitDateTime(trimmed)) return trimmed.slice(0, 19);
    instant = parseZonedDateTime(trimmed);
  }
  try {
    if (instant) return formatKuwaitDateTime(instant);
  } catch (error) {
    // An invalid Date, or a year that YYYY cannot hold once in Kuwait time.
    if (!(error instanceof RangeError)) throw error;
  }
  ctx.addIssue({
    code: "custom",
    message:
      "pickupDate must be a real date and time, written in Kuwait time as YYYY-MM-DDTHH:MM:SS",
  });
  return z.NEVER;
});

export const packageDetailsSchema = z.strictObject({
  weight: decimal("weight"),
  description: text,
  value: decimal("value").transform(roundKwd),
});

export const createOrderSchema = z.strictObject({
  pickupAddress: addressSchema,
  pickupDate,
  paymentMethod: z
    .string({ error: "paymentMethod must be text" })
    .trim()
    .min(1, "paymentMethod is required: a payment method code agreed with the courier"),
  deliveryAddress: addressSchema,
  packageDetails: packageDetailsSchema,
  notes: text,
});

/** What a create accepts: ids as numbers, phones and times as people write them. */
export type CreateOrderInput = z.input<typeof createOrderSchema>;
/** The exact body sent to `POST /api/orders/create`. */
export type CreateOrderBody = z.output<typeof createOrderSchema>;
export type AddressInput = z.input<typeof addressSchema>;

/** Bulk create: the document shows neither body nor reply; the client sends `{ orders: [...] }`. */
export const createBulkSchema = z
  .array(createOrderSchema)
  .min(1, "a bulk create needs at least one order");

const priceAddress = z.looseObject({
  governanceId: masterId("governanceId"),
  areaId: masterId("areaId"),
});

/**
 * The price request is not in the document: the ids of both addresses are required (a price by
 * area is the one thing a courier needs), everything else passes through as given.
 */
export const priceRequestSchema = z.looseObject({
  pickupAddress: priceAddress,
  deliveryAddress: priceAddress,
  packageDetails: z
    .looseObject({
      weight: decimal("weight").optional(),
      value: decimal("value").transform(roundKwd).optional(),
    })
    .optional(),
  vehicleTypeId: masterId("vehicleTypeId").optional(),
});
export type PriceInput = z.input<typeof priceRequestSchema>;

export const cancelRequestSchema = z
  .looseObject({ reason: z.string().trim().max(500).optional() })
  .optional()
  .transform((body) => body ?? {});
export type CancelInput = z.input<typeof cancelRequestSchema>;

const calendarDay = (name: string) =>
  z.union([z.date(), z.string()]).transform((value, ctx) => {
    if (value instanceof Date && !Number.isNaN(value.getTime())) return formatKuwaitDate(value);
    if (
      typeof value === "string" &&
      /^\d{4}-\d{2}-\d{2}$/.test(value) &&
      parseKuwaitDateTime(value)
    ) {
      return value;
    }
    ctx.addIssue({ code: "custom", message: `${name} must be a day written YYYY-MM-DD` });
    return z.NEVER;
  });

// The document gives no page size limit; 100 is the sandbox's (sandbox/README.md), so the client
// never asks for a page the courier may refuse or cut short without saying.
const MAX_PAGE_SIZE = 100;
const pagination = {
  page: z.int().min(1, "page counts from 1").optional(),
  pageSize: z.int().min(1).max(MAX_PAGE_SIZE, `pageSize is at most ${MAX_PAGE_SIZE}`).optional(),
};

/** History filters. The document names none; these are the sandbox's (see sandbox/README.md). */
export const historyQuerySchema = z.strictObject({
  from: calendarDay("from").optional(),
  to: calendarDay("to").optional(),
  status: z.string().trim().min(1).optional(),
  search: z.string().trim().min(1).max(200).optional(),
  ...pagination,
});
export type HistoryQuery = z.input<typeof historyQuerySchema>;

export const exceptionsQuerySchema = z.strictObject({
  from: calendarDay("from").optional(),
  to: calendarDay("to").optional(),
  orderId: z.string().trim().min(1).optional(),
  ...pagination,
});
export type ExceptionsQuery = z.input<typeof exceptionsQuerySchema>;

export const reportQuerySchema = z.strictObject({
  from: calendarDay("from").optional(),
  to: calendarDay("to").optional(),
});
export type ReportQuery = z.input<typeof reportQuerySchema>;

// Field path as people read it: `orders[2].deliveryAddress.contactPhone`.
function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) =>
      typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`,
    )
    .join("");
}

export function fieldErrorsOf(
  error: z.ZodError,
  prefix: readonly PropertyKey[] = [],
): CourierFieldError[] {
  return error.issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        field: fieldName([...path, key]),
        message: "is not a field the courier knows (misspelt?)",
      }));
    }
    return [{ field: fieldName(path) || "body", message: issue.message }];
  });
}

export function describeFieldErrors(errors: CourierFieldError[]): string {
  const shown = errors.slice(0, 3).map((e) => `${e.field}: ${e.message}`);
  const more = errors.length > 3 ? `; and ${errors.length - 3} more` : "";
  return `${shown.join("; ")}${more}`;
}

/**
 * Parses `input` with `schema`, or throws a `CourierValidationError` (outcome "not_sent") that
 * names every wrong field.
 */
export function validateRequest<S extends z.ZodType>(
  schema: S,
  input: unknown,
  endpoint: CourierEndpoint,
  action: string,
  prefix: readonly PropertyKey[] = [],
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fieldErrors = fieldErrorsOf(parsed.error, prefix);
  throw new CourierValidationError({
    endpoint,
    action,
    outcome: "not_sent",
    detail: describeFieldErrors(fieldErrors),
    fieldErrors,
  });
}

/**
 * The exact body the client would send to create this order, or a `CourierValidationError`
 * naming what is wrong. Pure: use it to check an order before queueing it.
 */
export function buildCreateOrderBody(input: CreateOrderInput): CreateOrderBody {
  return validateRequest(createOrderSchema, input, "createOrder", "preparing the order");
}
