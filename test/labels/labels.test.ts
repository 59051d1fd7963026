import { describe, expect, it } from "vitest";
import { code128Svg, qrCodeSvg } from "../../app/labels/codes";
import {
  filsFromKwdText,
  formatFils,
  labelDataFromDelivery,
  LabelUnavailableError,
  piecesFromDescription,
  renderLabelsDocument,
} from "../../app/labels";
import { redactDeliveryRequest } from "../../app/domain/redaction";
import { describeItems } from "../../app/domain/request";
import { requestColumn } from "../../app/domain/stored-request";
import { CREATED_DELIVERY_COLUMNS, createdDelivery } from "./fixtures";

const shop = { name: "Dar Al Abaya" };

describe("amounts in fils", () => {
  it.each([
    ["12.5", 12500],
    ["0.3", 300],
    ["12.345", 12345],
    ["7", 7000],
    ["1234567.001", 1234567001],
  ])("reads %s KWD as %i fils", (text, fils) => {
    expect(filsFromKwdText(text)).toBe(fils);
  });

  it.each(["12.3456", "-1", "1e3", "abc", ""])("refuses %j", (text) => {
    expect(filsFromKwdText(text)).toBeNull();
  });

  it("prints exactly three decimals, with no float rounding", () => {
    // 0.1 + 0.2 in floating point is 0.30000000000000004; in fils it is 300.
    expect(formatFils(filsFromKwdText("0.1")! + filsFromKwdText("0.2")!)).toBe("0.300 KWD");
    expect(formatFils(1_234_005)).toBe("1,234.005 KWD");
    expect(formatFils(0)).toBe("0.000 KWD");
  });
});

describe("label data from a delivery", () => {
  it("gives every field the label prints, names in English and Arabic", () => {
    const label = labelDataFromDelivery(createdDelivery(), { name: "#1042" }, shop);
    expect(label).toMatchObject({
      shopName: "Dar Al Abaya",
      courierOrderNumber: "KW0088123",
      trackingUrl: "https://app.example.com/tracking/0123456789abcdef0123456789abcdef",
      recipientName: "فاطمة العلي",
      recipientPhone: "+965 55512345",
      area: { en: "Hawalli", ar: "حولي" },
      governorate: { en: "Hawalli", ar: "حولي" },
      parts: {
        block: "4",
        street: "12",
        avenue: "3",
        house: "17",
        floor: "2",
        apartment: "5",
        paci: "12345678",
        building: null,
      },
      cash: { kind: "collect", fils: 12500, text: "12.500 KWD" },
      pieces: 3,
      weight: "1.25 kg",
      shopifyOrderName: "#1042",
      pickupDate: "24 Nov 2026, 14:30",
    });
  });

  it("says Paid when the delivery collects nothing", () => {
    const label = labelDataFromDelivery(createdDelivery({ cashToCollect: null }), null, shop);
    expect(label.cash).toEqual({ kind: "paid" });
  });

  it("prints what it can when the stored request no longer reads", () => {
    const label = labelDataFromDelivery(
      createdDelivery({ request: requestColumn.decode('{"deliveryAddress":') }),
      null,
      shop,
    );
    expect(label).toMatchObject({
      courierOrderNumber: "KW0088123",
      recipientName: "—",
      recipientPhone: "—",
      area: { en: "Hawalli", ar: "حولي" },
      parts: { block: "4", street: "12", paci: "12345678" },
      cash: { kind: "collect", fils: 12500, text: "12.500 KWD" },
      pieces: null,
      weight: null,
      pickupDate: null,
    });
  });

  it("prints the place of a delivery whose customer was erased, and no name", () => {
    const erased = createdDelivery({
      request: requestColumn.decode(
        JSON.stringify(redactDeliveryRequest(CREATED_DELIVERY_COLUMNS.request)),
      ),
      addressMatch: null,
    });
    expect(labelDataFromDelivery(erased, null, shop)).toMatchObject({
      recipientName: "—",
      recipientPhone: "+965",
      parts: { block: null, street: null, house: null },
      pieces: 3,
      weight: "1.25 kg",
      pickupDate: "24 Nov 2026, 14:30",
    });
  });

  it("refuses a delivery the courier has not created", () => {
    const delivery = createdDelivery({ courierOrderId: null, courierOrderNumber: null });
    expect(() => labelDataFromDelivery(delivery, null, shop)).toThrow(LabelUnavailableError);
  });

  it("prints every piece of a delivery whose item list was too long for the courier", () => {
    // 14 products, 3 of each: the list is far over the courier description's 200 characters.
    const items = Array.from({ length: 14 }, (_, i) => ({
      title: `Embroidered abaya, size ${50 + i}, colour midnight blue`,
      quantity: 3,
      unitWeightKg: 0.4,
      value: { shop: 10, presentment: 10 },
    }));
    const description = describeItems(items);
    expect(description.length).toBeLessThanOrEqual(200);
    const request = JSON.parse(CREATED_DELIVERY_COLUMNS.request) as {
      packageDetails: { description: string };
    };
    request.packageDetails.description = description;
    const label = labelDataFromDelivery(
      createdDelivery({ request: requestColumn.decode(JSON.stringify(request)) }),
      null,
      shop,
    );
    expect(label.pieces).toBe(42);
    expect(renderLabelsDocument([label], { size: "A6" })).toMatch(/<b>42<\/b>/);
  });

  it("keeps a cut item list within 200 characters and never halves a character", () => {
    for (let shift = 0; shift < 4; shift++) {
      const items = Array.from({ length: 20 }, () => ({
        title: `${"x".repeat(shift)}🎁🎁🎁🎁🎁🎁`,
        quantity: 1,
        unitWeightKg: null,
        value: { shop: 1, presentment: 1 },
      }));
      const description = describeItems(items);
      expect(description.length).toBeLessThanOrEqual(200);
      expect(description).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      expect(description.endsWith("… (20 pieces in all)")).toBe(true);
    }
  });

  it("counts pieces from a whole item list or the count a cut one ends with", () => {
    expect(piecesFromDescription("2 × Abaya, 1 × Scarf")).toBe(3);
    expect(piecesFromDescription("2 × Abaya, 1 × Scarf, 4 × Sca… (7 pieces in all)")).toBe(7);
    // Cut before the count was written after it: what is left would count short.
    expect(piecesFromDescription("2 × Abaya, 1 × Scarf, 4 × Sca…")).toBeNull();
    expect(piecesFromDescription("a parcel")).toBeNull();
  });
});

describe("the labels document", () => {
  it("has one page-sized label per delivery, for each size", () => {
    const labels = [1, 2, 3].map((n) =>
      labelDataFromDelivery(createdDelivery({ id: `cldelivery${n}` }), null, shop),
    );
    const a6 = renderLabelsDocument(labels, { size: "A6" });
    expect(a6.match(/<section class="label"/g)).toHaveLength(3);
    expect(a6).toContain("@page { size: 105mm 148mm; margin: 0; }");
    expect(a6).toContain("break-after: page");
    expect(renderLabelsDocument(labels, { size: "4x6" })).toContain("@page { size: 4in 6in;");
  });

  it("embeds the Arabic font and marks Arabic text right to left", () => {
    const html = renderLabelsDocument([labelDataFromDelivery(createdDelivery(), null, shop)], {
      size: "A6",
    });
    expect(html).toMatch(
      /@font-face\s*\{[^}]*font-family: 'Noto Sans Arabic'[^}]*data:font\/woff2;base64,/,
    );
    expect(html).toContain('<span dir="rtl" lang="ar" class="ar">حولي</span>');
  });

  it("draws the courier number as a Code 128 barcode and the tracking link as a QR code", () => {
    const html = renderLabelsDocument([labelDataFromDelivery(createdDelivery(), null, shop)], {
      size: "A6",
    });
    expect(html).toMatch(/<div class="barcode"[^>]*><svg preserveAspectRatio="none" viewBox/);
    expect(html).toMatch(/<div class="qr"[^>]*><svg viewBox/);
  });

  it("draws the barcode between Code 128's start B and stop patterns, a unit a module", () => {
    const svg = code128Svg("KW100001");
    const bars = [...svg.matchAll(/M(\d+) 0h(\d+)v40h-\2z/g)].map(([, x, w]) => [
      Number(x),
      Number(w),
    ]);
    // Widths from the bars and the gaps between them: bar, space, bar, … as the standard lists them.
    const widths = bars.flatMap(([x, w], i) => {
      const next = bars[i + 1];
      return next ? [w!, next[0]! - x! - w!] : [w!];
    });
    expect(widths.slice(0, 6)).toEqual([2, 1, 1, 2, 1, 4]); // Start B
    expect(widths.slice(-7)).toEqual([2, 3, 3, 1, 1, 1, 2]); // Stop
    // Start, K and W, 100001 as three pairs of digits (code C), checksum: 11 modules each; stop 13.
    expect(Number(/viewBox="0 0 (\d+) 40"/.exec(svg)?.[1])).toBe(11 * 7 + 11 + 13);
  });

  it("draws the QR code's three finder squares in its corners, one unit a module", () => {
    const svg = qrCodeSvg("https://app.example.com/tracking/0123456789abcdef0123456789abcdef");
    const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
    // A 66-character link needs version 5 at level M (up to 84 bytes): 37 modules a side.
    expect(size).toBe(37);
    const dark = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
    for (const [, x, y, w] of svg.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
      for (let i = 0; i < Number(w); i += 1) dark[Number(y)]![Number(x) + i] = true;
    }
    const finderAt = (top: number, left: number) =>
      [0, 1, 2, 3, 4, 5, 6].every((r) =>
        [0, 1, 2, 3, 4, 5, 6].every((c) => {
          const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
          return dark[top + r]![left + c] === (ring !== 2);
        }),
      );
    expect([finderAt(0, 0), finderAt(0, size - 7), finderAt(size - 7, 0)]).toEqual([
      true,
      true,
      true,
    ]);
    expect(finderAt(size - 7, size - 7)).toBe(false);
  });

  it("prints the shopper's note from the courier's notes, without the reference", () => {
    // The order's note never reached the courier or the label (issue 24).
    const stored = JSON.parse(CREATED_DELIVERY_COLUMNS.request) as Record<string, unknown>;
    const withNote = createdDelivery({
      request: requestColumn.decode(
        JSON.stringify({ ...stored, notes: `${stored.notes} · Ring twice, then call` }),
      ),
    });
    const label = labelDataFromDelivery(withNote, null, shop);
    expect(label.customerNote).toBe("Ring twice, then call");
    const html = renderLabelsDocument([label], { size: "A6" });
    expect(html).toContain("Ring twice, then call");
    expect(html).toContain('<span dir="rtl" lang="ar">ملاحظة</span>');
    // The app's own reference is for the courier's history search, not for the driver (issue 29).
    expect(html).not.toContain("SHPFY-");
  });

  it("prints a shopper's markup as text", () => {
    const hostile = createdDelivery({
      addressMatch: {
        input: {
          address1: '<img src=x onerror="alert(1)">',
          address2: "</style><script>alert(2)</script>",
        },
        area: "Hawalli",
        parts: { block: "<b>4</b>" },
      },
    });
    const html = renderLabelsDocument(
      [labelDataFromDelivery(hostile, { name: "<i>#1</i>" }, { name: "A & B <shop>" })],
      {
        size: "A6",
      },
    );
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>4</b>");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("A &amp; B &lt;shop&gt;");
  });
});
