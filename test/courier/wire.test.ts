import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildCreateOrderBody,
  CourierValidationError,
  formatKuwaitDateTime,
  normalizeContactPhone,
  normalizeContactPhoneAnyCountry,
  parseKuwaitDateTime,
  roundCoordinate,
  roundKwd,
  type CreateOrderInput,
} from "../../app/courier";
import { bulkResultSchema } from "../../app/courier/bulk-result";
import { COUNTRY_CALLING_CODES } from "../../app/courier/calling-codes";
import { exceptionsQuerySchema, historyQuerySchema } from "../../app/courier/requests";
import { areasSchema, createOrderResultSchema, trackingSchema } from "../../app/courier/results";

const ARABIC_INDIC = "٠١٢٣٤٥٦٧٨٩";
const PERSIAN = "۰۱۲۳۴۵۶۷۸۹";

const kuwaitiNumber = fc
  .tuple(fc.constantFrom("2", "4", "5", "6", "9"), fc.stringMatching(/^\d{7}$/))
  .map(([first, rest]) => first + rest);

/** The number as a person might type it: prefix, separators, Eastern Arabic digits. */
const typed = (digits: string) =>
  fc
    .record({
      prefix: fc.constantFrom("", "+965", "00965", "965", "+965 ", "(+965) ", "00 965 "),
      script: fc.constantFrom("latin", "arabic", "persian"),
      separators: fc.array(fc.constantFrom("", " ", "-", "\u00a0", ".", "\u200f"), {
        minLength: 8,
        maxLength: 8,
      }),
    })
    .map(({ prefix, script, separators }) => {
      const glyphs =
        script === "arabic" ? ARABIC_INDIC : script === "persian" ? PERSIAN : "0123456789";
      const body = [...digits].map((d, i) => `${glyphs[Number(d)]}${separators[i] ?? ""}`).join("");
      return `${prefix}${body}`;
    });

describe("phone numbers", () => {
  it("normalizes every way a Kuwaiti number is typed to its 8 digits", () => {
    fc.assert(
      fc.property(
        kuwaitiNumber.chain((n) => fc.tuple(fc.constant(n), typed(n))),
        ([digits, text]) => {
          expect(normalizeContactPhone(text)).toEqual({
            ok: true,
            contactCountryCode: "+965",
            contactPhone: digits,
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never throws, and what it accepts is digits only and normalizes to itself", () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom("+965", "+971", "966", "+1"), (text, code) => {
        const result = normalizeContactPhone(text, code);
        if (!result.ok) {
          expect(result.message.length).toBeGreaterThan(5);
          return;
        }
        expect(result.contactPhone).toMatch(/^\d+$/);
        expect(normalizeContactPhone(result.contactPhone, result.contactCountryCode)).toEqual(
          result,
        );
        if (result.contactCountryCode === "+965")
          expect(result.contactPhone).toMatch(/^[24569]\d{7}$/);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads a number without a country code the same way, and what it accepts normalizes to itself", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^(\+|00)[1-9][\d ]{3,14}$/)), (text) => {
        const result = normalizeContactPhoneAnyCountry(text);
        if (!result.ok) {
          expect(result.message.length).toBeGreaterThan(5);
          return;
        }
        expect(result.contactPhone).toMatch(/^\d+$/);
        expect(COUNTRY_CALLING_CODES).toContain(result.contactCountryCode.slice(1));
        expect(normalizeContactPhone(result.contactPhone, result.contactCountryCode)).toEqual(
          result,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("knows each country calling code by its digits alone, none the start of another", () => {
    expect(new Set(COUNTRY_CALLING_CODES).size).toBe(COUNTRY_CALLING_CODES.length);
    for (const code of COUNTRY_CALLING_CODES) {
      expect(code).toMatch(/^[1-9]\d{0,2}$/);
      const others = COUNTRY_CALLING_CODES.filter((other) => other !== code);
      expect(others.filter((other) => other.startsWith(code))).toEqual([]);
    }
    for (const code of ["965", "966", "968", "971", "973", "974", "20", "91", "92", "880", "1"]) {
      expect(COUNTRY_CALLING_CODES).toContain(code);
    }
  });

  it.each([
    ["9999 888", /has 7/],
    ["+965 9999 88888", /has 9/],
    ["12345678", /start with 2, 4, 5, 6 or 9/],
    ["+971 50 123 4567", /another country than \+965/],
    ["9999-8888 ext 2", /not part of a phone number/],
    ["", /empty/],
  ])("refuses %j with a message saying why", (text, message) => {
    const result = normalizeContactPhone(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(message);
  });

  it.each(["003900 00", "+242 00 1234", "+39 0012345"])(
    "refuses %j, whose number after a dialled-0 country code starts with 00",
    (text) => {
      const result = normalizeContactPhoneAnyCountry(text);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.message).toMatch(/starts with 00/);
    },
  );

  it("keeps 965xxxxx as the local number it is", () => {
    expect(normalizeContactPhone("96512345")).toMatchObject({ ok: true, contactPhone: "96512345" });
  });

  it("takes a number of another country with its code", () => {
    expect(normalizeContactPhone("+971 50 123 4567", "+971")).toEqual({
      ok: true,
      contactCountryCode: "+971",
      contactPhone: "501234567",
    });
    expect(normalizeContactPhone("050 123 4567", "971")).toMatchObject({
      ok: true,
      contactPhone: "501234567",
    });
  });

  it.each([
    ["050 123 4567", "+971", "501234567"],
    ["+971 050 123 4567", "+971", "501234567"],
    ["+44 (0)20 7946 0958", "+44", "2079460958"],
    ["020 7946 0958", "+44", "2079460958"],
    ["0044 (0) 20 7946 0958", "44", "2079460958"],
    ["0300 1234567", "+92", "3001234567"],
  ])("drops the trunk 0 of %j after %s, which is not dialled from abroad", (text, code, digits) => {
    expect(normalizeContactPhone(text, code)).toEqual({
      ok: true,
      contactCountryCode: `+${code.replace("+", "")}`,
      contactPhone: digits,
    });
  });

  it.each([
    ["+39 06 1234 5678", "+39", "0612345678"],
    ["06 1234 5678", "+39", "0612345678"],
    ["+225 07 07 12 34 56", "+225", "0707123456"],
    ["+242 06 612 3456", "+242", "066123456"],
  ])(
    "keeps the leading 0 of %j after %s, where it is dialled from abroad",
    (text, code, digits) => {
      expect(normalizeContactPhone(text, code)).toMatchObject({ ok: true, contactPhone: digits });
    },
  );

  it("refuses a number that still starts with 0 once the trunk 0 is dropped", () => {
    const result = normalizeContactPhone("+971 00 50 123 4567", "+971");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/starts with 0/);
  });
});

describe("money and coordinates", () => {
  const hasAtMostDecimals = (value: number, places: number) => {
    const text = String(value);
    return text.includes("e")
      ? Math.abs(value) < 1e-6 || Number.isInteger(value)
      : (text.split(".")[1] ?? "").length <= places;
  };

  it("rounds dinar to three decimals, half away from zero, as written in decimal", () => {
    expect(roundKwd(1.0005)).toBe(1.001);
    expect(roundKwd(2.675)).toBe(2.675);
    expect(roundKwd(12.5)).toBe(12.5);
    expect(roundKwd(0.0004)).toBe(0);
    expect(roundCoordinate(-47.1234565)).toBe(-47.123457);
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (value) => {
        const rounded = roundKwd(value);
        expect(hasAtMostDecimals(rounded, 3)).toBe(true);
        expect(Math.abs(rounded - value)).toBeLessThanOrEqual(
          0.0005 + 1e-9 * Math.max(1, Math.abs(value)),
        );
        expect(roundKwd(rounded)).toBe(rounded);
        expect(JSON.parse(JSON.stringify(rounded))).toBe(rounded);
      }),
    );
  });

  it("keeps every amount already in fils exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (fils) => {
        expect(roundKwd(fils / 1000)).toBe(fils / 1000);
      }),
    );
  });

  it("rounds coordinates to six decimals", () => {
    fc.assert(
      fc.property(fc.double({ min: -180, max: 180, noNaN: true }), (value) => {
        const rounded = roundCoordinate(value);
        expect(hasAtMostDecimals(rounded, 6)).toBe(true);
        expect(Math.abs(rounded - value)).toBeLessThanOrEqual(0.0000005 + 1e-12);
      }),
    );
  });
});

describe("Kuwait local time", () => {
  it("is UTC+3 all year, written without offset", () => {
    expect(formatKuwaitDateTime(new Date("2026-01-01T21:30:05.900Z"))).toBe("2026-01-02T00:30:05");
    expect(formatKuwaitDateTime(new Date("2026-07-01T09:00:00Z"))).toBe("2026-07-01T12:00:00");
    expect(() => formatKuwaitDateTime(new Date(Number.NaN))).toThrow(RangeError);
  });

  it("parses back to the same second", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1971-01-01"), max: new Date("2999-12-31"), noInvalidDate: true }),
        (date) => {
          const text = formatKuwaitDateTime(date);
          expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
          expect(parseKuwaitDateTime(text)?.getTime()).toBe(
            Math.floor(date.getTime() / 1000) * 1000,
          );
        },
      ),
    );
  });

  it("refuses a day or an hour that does not exist, and any offset", () => {
    expect(parseKuwaitDateTime("2026-02-29T10:00:00")).toBeNull();
    expect(parseKuwaitDateTime("2026-01-01T24:00:00")).toBeNull();
    expect(parseKuwaitDateTime("2026-01-01T10:00:00+03:00")).toBeNull();
  });
});

const valid: CreateOrderInput = {
  pickupAddress: {
    governanceId: 31,
    areaId: 4101,
    block: "1",
    contactName: "Store",
    contactPhone: "22223333",
  },
  pickupDate: "2026-03-01T10:00:00",
  paymentMethod: "cod",
  deliveryAddress: {
    governanceId: 17,
    areaId: 2202,
    block: "4",
    street: "12",
    contactName: "Customer",
    contactPhone: "+965 6666 5555",
    latitude: 29.1,
    longitude: 48.1,
  },
  packageDetails: { weight: 2, value: 10 },
};

describe("the create request", () => {
  it("is sent with every documented field, in the document's order", () => {
    const body = buildCreateOrderBody(valid);
    expect(Object.keys(body)).toEqual([
      "pickupAddress",
      "pickupDate",
      "paymentMethod",
      "deliveryAddress",
      "packageDetails",
      "notes",
    ]);
    expect(Object.keys(body.deliveryAddress)).toEqual([
      "governanceId",
      "areaId",
      "block",
      "street",
      "office",
      "floor",
      "house",
      "avenue",
      "building",
      "contactCountryCode",
      "contactName",
      "contactPhone",
      "latitude",
      "longitude",
      "notes",
    ]);
    expect(body.pickupAddress).not.toHaveProperty("latitude");
    expect(body.pickupAddress).toMatchObject({
      contactCountryCode: "+965",
      office: "",
      street: "",
    });
    expect(body.packageDetails).toEqual({ weight: 2, description: "", value: 10 });
  });

  it("writes the pickup time in Kuwait local time whatever form it came in", () => {
    const at = (pickupDate: CreateOrderInput["pickupDate"]) =>
      buildCreateOrderBody({ ...valid, pickupDate }).pickupDate;
    expect(at(new Date("2026-03-01T07:00:00Z"))).toBe("2026-03-01T10:00:00");
    expect(at("2026-03-01T07:00:00Z")).toBe("2026-03-01T10:00:00");
    expect(at("2026-03-01T10:00:00+03:00")).toBe("2026-03-01T10:00:00");
    expect(at("2026-03-01T10:00:00")).toBe("2026-03-01T10:00:00");
    expect(at("2026-03-01T07:00Z")).toBe("2026-03-01T10:00:00");
    expect(at("2026-03-01T12:30:00.250+05:30")).toBe("2026-03-01T10:00:00");
    expect(at("2026-02-28T23:00:00-04:00")).toBe("2026-03-01T06:00:00");
  });

  it("accepts a country code without its plus sign and writes it with one", () => {
    const body = buildCreateOrderBody({
      ...valid,
      deliveryAddress: {
        ...valid.deliveryAddress,
        contactCountryCode: "00971",
        contactPhone: "+971 50 123 4567",
      },
    });
    expect(body.deliveryAddress).toMatchObject({
      contactCountryCode: "+971",
      contactPhone: "501234567",
    });
  });

  it.each([
    ["+971501234567", "+971", "501234567"],
    ["00966 50 123 4567", "+966", "501234567"],
    ["+973 3600 1234", "+973", "36001234"],
    ["+974 5512 3456", "+974", "55123456"],
    ["+968 9212 3456", "+968", "92123456"],
    ["+20 10 1234 5678", "+20", "1012345678"],
    ["+962 7 9012 3456", "+962", "790123456"],
    ["+91 98765 43210", "+91", "9876543210"],
    ["+92 300 1234567", "+92", "3001234567"],
    ["+880 1712-345678", "+880", "1712345678"],
    ["+94 77 123 4567", "+94", "771234567"],
    ["+977 984-1234567", "+977", "9841234567"],
    ["+63 917 123 4567", "+63", "9171234567"],
    ["+44 (0)20 7946 0958", "+44", "2079460958"],
    ["+1 (415) 555-0100", "+1", "4155550100"],
    ["+٩٧١ ٥٠ ١٢٣ ٤٥٦٧", "+971", "501234567"],
    ["+965 5000 1234", "+965", "50001234"],
    ["0096550001234", "+965", "50001234"],
    ["96550001234", "+965", "50001234"],
    ["٩٩٨٨ ٧٧٦٦", "+965", "99887766"],
  ])(
    "takes the country code from %j when none is given",
    (contactPhone, contactCountryCode, digits) => {
      const body = buildCreateOrderBody({
        ...valid,
        deliveryAddress: { ...valid.deliveryAddress, contactPhone },
      });
      expect(body.deliveryAddress).toMatchObject({ contactCountryCode, contactPhone: digits });
    },
  );

  it("refuses a number in international form whose country code no country has", () => {
    try {
      buildCreateOrderBody({
        ...valid,
        deliveryAddress: { ...valid.deliveryAddress, contactPhone: "+280 1234 5678" },
      });
      throw new Error("expected a validation error");
    } catch (error) {
      expect(error).toBeInstanceOf(CourierValidationError);
      expect((error as CourierValidationError).fieldErrors).toEqual([
        {
          field: "deliveryAddress.contactPhone",
          message: expect.stringMatching(/no country calling code/),
        },
      ]);
    }
  });

  it.each([
    [
      "a governance id as text",
      { pickupAddress: { ...valid.pickupAddress, governanceId: "31" } },
      "pickupAddress.governanceId",
    ],
    [
      "a fractional area id",
      { deliveryAddress: { ...valid.deliveryAddress, areaId: 12.5 } },
      "deliveryAddress.areaId",
    ],
    ["a misspelt field", { deliveryAdress: {} }, "deliveryAdress"],
    [
      "half a coordinate",
      { deliveryAddress: { ...valid.deliveryAddress, longitude: undefined } },
      "deliveryAddress.longitude",
    ],
    ["a day that does not exist", { pickupDate: "2026-02-30T10:00:00" }, "pickupDate"],
    [
      "a day that does not exist, with an offset",
      { pickupDate: "2026-02-30T10:00:00Z" },
      "pickupDate",
    ],
    ["hour 24, with an offset", { pickupDate: "2026-03-01T24:00:00Z" }, "pickupDate"],
    ["minute 60, with an offset", { pickupDate: "2026-03-01T10:60:00+03:00" }, "pickupDate"],
    ["an offset of 24 hours", { pickupDate: "2026-03-01T10:00:00+24:00" }, "pickupDate"],
    [
      "a time past the year 9999 in Kuwait",
      { pickupDate: "9999-12-31T23:00:00-05:00" },
      "pickupDate",
    ],
    ["a negative value", { packageDetails: { weight: 1, value: -0.5 } }, "packageDetails.value"],
    ["no payment method", { paymentMethod: " " }, "paymentMethod"],
    [
      "a bad country code",
      { deliveryAddress: { ...valid.deliveryAddress, contactCountryCode: "KW" } },
      "deliveryAddress.contactCountryCode",
    ],
  ])("refuses %s, naming the field", (_what, change, field) => {
    try {
      buildCreateOrderBody({ ...valid, ...change } as CreateOrderInput);
      throw new Error("expected a validation error");
    } catch (error) {
      expect(error).toBeInstanceOf(CourierValidationError);
      const e = error as CourierValidationError;
      expect(e.outcome).toBe("not_sent");
      expect(e.fieldErrors.map((f) => f.field)).toContain(field);
      expect(e.message).toContain(field);
    }
  });
});

describe("history and exception queries", () => {
  it.each([
    ["history", historyQuerySchema],
    ["exceptions", exceptionsQuerySchema],
  ] as const)("ask %s for at most 100 a page, the sandbox's limit", (_name, schema) => {
    expect(schema.safeParse({ pageSize: 100 }).success).toBe(true);
    expect(schema.safeParse({ pageSize: 101 }).success).toBe(false);
    expect(schema.safeParse({ pageSize: 0 }).success).toBe(false);
  });
});

describe("undocumented records", () => {
  it("finds area ids and names under the names couriers use", () => {
    const parsed = areasSchema.parse({
      items: [
        { AreaID: "4101", AreaName: "حولي", GovernanceID: 17 },
        { id: 9, name: "Salmiya" },
        { area_id: 3, area_name_ar: "x" },
        { something: "else" },
      ],
    });
    expect(
      parsed.map(({ areaId, areaName, governanceId }) => [areaId, areaName, governanceId]),
    ).toEqual([
      [4101, "حولي", 17],
      [9, "Salmiya", null],
      [3, "x", null],
      [null, null, null],
    ]);
    expect(parsed[3]?.raw).toEqual({ something: "else" });
  });

  it("reads tracking as a list of steps or an object holding one", () => {
    expect(
      trackingSchema.parse([
        { status: "pending", at: "2026-01-01T10:00:00" },
        { statusCode: "accepted" },
      ]),
    ).toMatchObject({
      status: "accepted",
      events: [{ status: "pending" }, { status: "accepted" }],
    });
    expect(
      trackingSchema.parse({ currentStatus: { code: "delivered", name: "تم" }, timeline: [] }),
    ).toMatchObject({
      status: "delivered",
      events: [],
    });
  });

  it("calls a bulk entry rejected only when the courier says it failed, and unknown when it names no order", () => {
    const result = bulkResultSchema(7).parse([
      { index: 0, success: true, orderId: "a1", orderNumber: "KW1" },
      { index: 1, success: false, message: "areaId is not in governance 17" },
      { index: 2, success: false },
      { index: 3, error: "Invalid phone" },
      // Created, but its id under a name the client does not know.
      { index: 4, success: true, shipmentRef: "S-99", message: "Created" },
      { index: 5 },
      { index: 6, message: "Order received" },
    ]);
    expect(result.items.map((item) => item.outcome)).toEqual([
      "created",
      "rejected",
      "rejected",
      "rejected",
      "unknown",
      "unknown",
      "unknown",
    ]);
    expect(result).toMatchObject({ created: 1, rejected: 3, unknown: 3 });
    expect(result.items[1]).toMatchObject({ message: "areaId is not in governance 17" });
    expect(result.items[3]).toMatchObject({ message: "Invalid phone" });
    // What the courier did say is kept for whoever reconciles it.
    expect(result.items[4]).toMatchObject({
      raw: { shipmentRef: "S-99" },
      message: expect.stringMatching(/created, but .* no order id/),
    });
  });

  it("is strict about the documented create result and keeps its extra fields", () => {
    const result = {
      orderId: "a1",
      orderNumber: "KW1",
      status: "pending",
      createdAt: "2026-01-01T10:00:00",
      eta: "today",
    };
    expect(createOrderResultSchema.parse(result)).toEqual(result);
    expect(createOrderResultSchema.safeParse({ ...result, orderId: 12 }).success).toBe(false);
    expect(
      createOrderResultSchema.safeParse({ ...result, createdAt: "2026-01-01T10:00:00Z" }).success,
    ).toBe(false);
  });
});
