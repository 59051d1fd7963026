import { PAYMENT_METHODS, type SandboxGovernance } from "./master-data";

/**
 * What this plausible courier requires of a create request. Written independently of the app's
 * client schemas on purpose: contract tests would prove nothing if both sides shared one schema.
 */

export interface FieldError {
  field: string;
  message: string;
}

export interface WireAddress {
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

export interface WireOrder {
  pickupAddress: WireAddress;
  pickupDate: string;
  paymentMethod: (typeof PAYMENT_METHODS)[number];
  deliveryAddress: WireAddress;
  packageDetails: { weight: number; description: string; value: number };
  notes: string;
}

const KUWAIT_OFFSET_MS = 3 * 3600_000;
const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** Kuwait local time (UTC+3 all year) as `YYYY-MM-DDTHH:MM:SS`. */
export function kuwaitLocal(ms: number): string {
  const d = new Date(ms + KUWAIT_OFFSET_MS);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(
    d.getUTCHours(),
  )}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** The instant of a Kuwait local `YYYY-MM-DDTHH:MM:SS` (or `YYYY-MM-DD`), or null. */
export function parseKuwaitLocal(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v)));
  const utc = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h, mi, s);
  if (kuwaitLocal(utc - KUWAIT_OFFSET_MS).slice(0, m[4] ? 19 : 10) !== text) return null;
  return utc - KUWAIT_OFFSET_MS;
}

type Reader = (field: string) => unknown;

class Checker {
  readonly errors: FieldError[] = [];

  constructor(private readonly prefix: string) {}

  fail(field: string, message: string): void {
    this.errors.push({ field: this.prefix + field, message });
  }

  integer(read: Reader, field: string): number | undefined {
    const value = read(field);
    if (typeof value !== "number" || !Number.isInteger(value)) {
      this.fail(field, value === undefined ? "is required" : "must be an integer");
      return undefined;
    }
    return value;
  }

  text(read: Reader, field: string, required: boolean, max = 200): string {
    const value = read(field);
    if (value === undefined || value === null) {
      if (required) this.fail(field, "is required");
      return "";
    }
    if (typeof value !== "string") {
      this.fail(field, "must be a string");
      return "";
    }
    if (required && value.trim() === "") this.fail(field, "must not be empty");
    if (value.length > max) this.fail(field, `must be at most ${max} characters`);
    return value;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function checkAddress(
  value: unknown,
  name: string,
  check: Checker,
  governances: SandboxGovernance[],
): WireAddress | undefined {
  if (!isObject(value)) {
    check.fail(name, value === undefined ? "is required" : "must be an object");
    return undefined;
  }
  const read: Reader = (f) => value[f];
  const sub = new Checker(`${name}.`);
  const governanceId = sub.integer(read, "governanceId");
  const areaId = sub.integer(read, "areaId");
  if (governanceId !== undefined && areaId !== undefined) {
    const governance = governances.find((g) => g.governanceId === governanceId);
    if (!governance) {
      sub.fail("governanceId", `${governanceId} is not a governance id of this courier`);
    } else if (!governance.areas.some((a) => a.areaId === areaId)) {
      const elsewhere = governances.find((g) => g.areas.some((a) => a.areaId === areaId));
      sub.fail(
        "areaId",
        elsewhere
          ? `${areaId} is an area of governance ${elsewhere.governanceId}, not of ${governanceId}`
          : `${areaId} is not an area id of this courier`,
      );
    }
  }
  const address: WireAddress = {
    governanceId: governanceId ?? 0,
    areaId: areaId ?? 0,
    block: sub.text(read, "block", true, 20),
    street: sub.text(read, "street", false),
    office: sub.text(read, "office", false),
    floor: sub.text(read, "floor", false, 20),
    house: sub.text(read, "house", false, 20),
    avenue: sub.text(read, "avenue", false),
    building: sub.text(read, "building", false),
    contactCountryCode: sub.text(read, "contactCountryCode", true, 5),
    contactName: sub.text(read, "contactName", true, 100),
    contactPhone: sub.text(read, "contactPhone", true, 15),
    notes: sub.text(read, "notes", false, 500),
  };
  if (address.contactCountryCode && !/^\+[1-9]\d{0,3}$/.test(address.contactCountryCode)) {
    sub.fail("contactCountryCode", "must be a plus sign and 1 to 4 digits, such as +965");
  }
  if (address.contactPhone) {
    if (!/^\d+$/.test(address.contactPhone)) {
      sub.fail("contactPhone", "must contain digits only, without the country code");
    } else if (
      address.contactCountryCode === "+965" &&
      !/^[24569]\d{7}$/.test(address.contactPhone)
    ) {
      sub.fail("contactPhone", "is not a Kuwaiti number (8 digits starting with 2, 4, 5, 6 or 9)");
    }
  }
  const { latitude, longitude } = value;
  if (latitude !== undefined || longitude !== undefined) {
    if (typeof latitude !== "number" || Math.abs(latitude) > 90) {
      sub.fail("latitude", "must be a number between -90 and 90 when coordinates are given");
    } else if (typeof longitude !== "number" || Math.abs(longitude) > 180) {
      sub.fail("longitude", "must be a number between -180 and 180 when coordinates are given");
    } else {
      address.latitude = latitude;
      address.longitude = longitude;
    }
  }
  check.errors.push(...sub.errors);
  return address;
}

function hasAtMostDecimals(value: number, places: number): boolean {
  const scaled = value * 10 ** places;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

/** A valid order, or every problem with it. `now` bounds the pickup date. */
export function validateOrder(
  body: unknown,
  governances: SandboxGovernance[],
  now: number,
): { ok: true; order: WireOrder } | { ok: false; errors: FieldError[] } {
  const check = new Checker("");
  if (!isObject(body))
    return { ok: false, errors: [{ field: "body", message: "must be a JSON object" }] };
  if ("sender" in body || "receiver" in body) {
    return {
      ok: false,
      errors: [
        {
          field: "body",
          message:
            "sender/receiver bodies are not accepted: send pickupAddress, deliveryAddress, packageDetails, pickupDate and paymentMethod",
        },
      ],
    };
  }
  const read: Reader = (f) => body[f];
  const pickupAddress = checkAddress(body.pickupAddress, "pickupAddress", check, governances);
  const deliveryAddress = checkAddress(body.deliveryAddress, "deliveryAddress", check, governances);

  const pickupDate = check.text(read, "pickupDate", true, 19);
  if (pickupDate) {
    const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(pickupDate)
      ? parseKuwaitLocal(pickupDate)
      : null;
    if (at === null)
      check.fail("pickupDate", "must be a Kuwait local time written YYYY-MM-DDTHH:MM:SS");
    else if (at < now - 24 * 3600_000) check.fail("pickupDate", "is more than a day in the past");
    else if (at > now + 30 * 24 * 3600_000) check.fail("pickupDate", "is more than 30 days ahead");
  }

  const paymentMethod = check.text(read, "paymentMethod", true, 20).toLowerCase();
  if (paymentMethod && !(PAYMENT_METHODS as readonly string[]).includes(paymentMethod)) {
    check.fail("paymentMethod", `must be one of ${PAYMENT_METHODS.join(", ")}`);
  }

  let packageDetails: WireOrder["packageDetails"] | undefined;
  if (!isObject(body.packageDetails)) {
    check.fail(
      "packageDetails",
      body.packageDetails === undefined ? "is required" : "must be an object",
    );
  } else {
    const pkg = body.packageDetails;
    const { weight, value } = pkg;
    if (typeof weight !== "number" || !(weight > 0) || weight > 2000) {
      check.fail("packageDetails.weight", "must be a number of kilograms above 0 and at most 2000");
    }
    if (typeof value !== "number" || !(value >= 0) || !hasAtMostDecimals(value, 3)) {
      check.fail(
        "packageDetails.value",
        "must be an amount of Kuwaiti dinar with at most three decimals",
      );
    }
    const description = new Checker("packageDetails.");
    const text = description.text((f) => pkg[f], "description", false, 500);
    check.errors.push(...description.errors);
    packageDetails = { weight: Number(weight), description: text, value: Number(value) };
  }
  // The document names no length for either notes field; 500 each is this sandbox's choice.
  const notes = check.text(read, "notes", false, 500);

  if (check.errors.length > 0 || !pickupAddress || !deliveryAddress || !packageDetails) {
    return { ok: false, errors: check.errors };
  }
  return {
    ok: true,
    order: {
      pickupAddress,
      pickupDate,
      paymentMethod: paymentMethod as WireOrder["paymentMethod"],
      deliveryAddress,
      packageDetails,
      notes,
    },
  };
}
