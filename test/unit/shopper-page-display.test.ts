import { describe, expect, it } from "vitest";
import { shopperPageDisplay } from "../../app/components/shopper-page/display.server";
import { answerFormValues, errorCode, whatsappHref } from "../../app/components/shopper-page/view";
import { formatShopperDay, formatShopperMoment } from "../../app/i18n/format";
import type { ShopperPageView } from "../../app/shopper/page.server";

/** An order asked about before fulfilment: no block, cash on delivery. */
function askedView(overrides: Partial<ShopperPageView> = {}): ShopperPageView {
  return {
    language: "ar",
    shop: { name: "Dar Al Oud", phone: "+965 2222 3333", whatsapp: "96522223333", email: null },
    orderName: "#4501",
    items: [{ title: "Abaya", quantity: 2 }],
    cashToCollect: "36.500",
    phone: "•••• •234",
    tracking: null,
    question: {
      questions: ["address", "cash"],
      reasons: ["block", "cash_confirmation"],
      doubt: null,
      answerBy: "2026-11-29T11:05:00.000Z",
    },
    answered: null,
    place: {
      governanceId: 3,
      areaId: 31,
      area: { en: "Salmiya", ar: "السالمية", courier: "السالميه" },
      governorate: { en: "Hawalli", ar: "حولي" },
      parts: {
        block: null,
        street: "12",
        avenue: null,
        house: "7",
        building: null,
        floor: null,
        apartment: null,
        paci: null,
      },
      complete: false,
    },
    typed: "near the co-op, behind the mosque, Salmiya",
    canChange: true,
    refusal: null,
    choices: {
      governorates: [
        { id: 3, en: "Hawalli", ar: "حولي" },
        { id: 1, en: "Capital", ar: "العاصمة" },
      ],
      areas: [
        {
          id: 31,
          governanceId: 3,
          courierName: "السالميه",
          en: "Salmiya",
          ar: "السالمية",
          governorate: "حولي",
          search: "salmiya السالميه|~slmy",
          rememberable: true,
        },
        {
          id: 11,
          governanceId: 1,
          courierName: "الشرق",
          en: "Sharq",
          ar: "الشرق",
          governorate: "العاصمة",
          search: "sharq الشرق|~shrq",
          rememberable: true,
        },
      ],
    },
    ...overrides,
  };
}

describe("the shopper's page as shown", () => {
  it("says why the area is in doubt with the areas named in the page's language", () => {
    const view = askedView({
      question: {
        questions: ["address"],
        reasons: ["area_not_sure"],
        doubt: { kind: "two_areas", areas: ["Salwa", "Rumaithiya"] },
        answerBy: null,
      },
    });
    expect(shopperPageDisplay(view, "ar").question?.doubt).toEqual({
      kind: "two_areas",
      params: { area: "سلوى", other: "الرميثية" },
    });
    expect(shopperPageDisplay(view, "en").question?.doubt).toEqual({
      kind: "two_areas",
      params: { area: "Salwa", other: "Rumaithiya" },
    });
    const generic = askedView({
      question: {
        questions: ["address"],
        reasons: ["area_not_recognised"],
        doubt: { kind: "only_generic", typed: "مدينة الكويت" },
        answerBy: null,
      },
    });
    expect(shopperPageDisplay(generic, "en").question?.doubt).toEqual({
      kind: "only_generic",
      params: { typed: "مدينة الكويت" },
    });
  });

  it("writes the answer-by time in Kuwait's time, in the page's language", () => {
    expect(shopperPageDisplay(askedView(), "en").question?.answerBy).toBe("Sun 29 Nov, 2:05 pm");
    expect(shopperPageDisplay(askedView(), "ar").question?.answerBy).toBe(
      "الأحد، 29 نوفمبر، 2:05 م",
    );
  });

  it("names the place and the areas in the page's language, the other kept for search", () => {
    const en = shopperPageDisplay(askedView(), "en");
    expect(en.place).toMatchObject({ governorate: "Hawalli", area: "Salmiya", complete: false });
    expect(en.choices?.areas.find((a) => a.id === 31)).toMatchObject({
      name: "Salmiya",
      otherName: "السالمية",
    });
    expect(shopperPageDisplay(askedView(), "ar").place?.area).toBe("السالمية");
  });

  it("sorts governorates and areas by their names in the page's language", () => {
    const en = shopperPageDisplay(askedView(), "en");
    expect(en.choices?.governorates.map((g) => g.name)).toEqual(["Capital", "Hawalli"]);
    expect(en.choices?.areas.map((a) => a.name)).toEqual(["Salmiya", "Sharq"]);
    const ar = shopperPageDisplay(askedView(), "ar");
    expect(ar.choices?.areas.map((a) => a.name)).toEqual(["السالمية", "الشرق"]);
  });

  it("asks for the cash only until the shopper has confirmed it", () => {
    expect(shopperPageDisplay(askedView(), "en").question).toMatchObject({
      asksAddress: true,
      asksCash: true,
    });
    const confirmed = askedView({
      answered: { kind: "cash_only", at: "2026-11-29T09:00:00.000Z", cashConfirmed: true },
    });
    expect(shopperPageDisplay(confirmed, "en").question?.asksCash).toBe(false);
  });

  it("shows the order received and the journey ahead before the courier has the parcel", () => {
    const steps = shopperPageDisplay(askedView(), "en").steps;
    expect(steps.map((s) => [s.step, s.now, s.done])).toEqual([
      ["received", true, true],
      ["booked", false, false],
      ["picked_up", false, false],
      ["in_transit", false, false],
      ["out_for_delivery", false, false],
      ["delivered", false, false],
    ]);
  });

  it("marks where the parcel is now, with its time, and writes the expected day", () => {
    const page = shopperPageDisplay(
      askedView({
        question: null,
        tracking: {
          done: [
            { step: "booked", at: "2026-11-29T06:00:00.000Z" },
            { step: "picked_up", at: "2026-11-29T09:30:00.000Z" },
          ],
          ahead: ["in_transit", "out_for_delivery", "delivered"],
          outcome: null,
          number: "KW990001",
          expectedDay: "2026-11-30",
        },
      }),
      "en",
    );
    expect(page.steps.filter((s) => s.now).map((s) => [s.step, s.when])).toEqual([
      ["picked_up", "Sun 29 Nov, 12:30 pm"],
    ]);
    expect(page.expectedDay).toBe("Monday 30 November");
    expect(page.trackingNumber).toBe("KW990001");
  });

  it("shows no journey for an order cancelled before the courier had it", () => {
    const page = shopperPageDisplay(askedView({ refusal: "cancelled", canChange: false }), "en");
    expect(page.steps).toEqual([]);
  });

  it("gives a link to call the shop with the number's digits only", () => {
    expect(shopperPageDisplay(askedView(), "en").contact.phone).toEqual({
      text: "+965 2222 3333",
      href: "tel:+96522223333",
    });
  });
});

describe("the shopper's form as the server reads it", () => {
  const form = (entries: [string, string][]) => {
    const data = new FormData();
    for (const [key, value] of entries) data.append(key, value);
    return data;
  };

  it("keeps the form's own fields and drops anything else", () => {
    expect(
      answerFormValues(
        form([
          ["intent", "fix"],
          ["areaId", "31"],
          ["block", "3"],
          ["shop", "other-shop.myshopify.com"],
        ]),
      ),
    ).toEqual({ intent: "fix", areaId: "31", block: "3" });
  });

  it("sends the cash box only when it was ticked", () => {
    expect(answerFormValues(form([["intent", "cash"]]))).toEqual({ intent: "cash" });
    expect(
      answerFormValues(
        form([
          ["intent", "cash"],
          ["cashConfirmed", "on"],
        ]),
      ),
    ).toEqual({
      intent: "cash",
      cashConfirmed: "yes",
    });
  });

  it("cuts an overlong value before echoing it back", () => {
    expect(answerFormValues(form([["notes", "x".repeat(5_000)]])).notes).toHaveLength(400);
  });

  it("explains the codes it knows and any other as a generic problem", () => {
    expect(errorCode("block_missing")).toBe("block_missing");
    expect(errorCode("Invalid option: expected one of")).toBe("generic");
    expect(errorCode(undefined)).toBeNull();
  });

  it("opens WhatsApp's chat with the shop, its first line naming the order", () => {
    expect(whatsappHref("96522223333", "Hello, order #4501")).toBe(
      "https://wa.me/96522223333?text=Hello%2C%20order%20%234501",
    );
    expect(whatsappHref("96522223333", null)).toBe("https://wa.me/96522223333");
  });
});

describe("days and times for shoppers", () => {
  it("writes a day with its weekday, day before month", () => {
    expect(formatShopperDay("2026-12-03", "en")).toBe("Thursday 3 December");
    expect(formatShopperDay("2026-12-03", "ar")).toBe("الخميس، 3 ديسمبر");
  });

  it("writes a moment in Kuwait's time whatever the server's zone", () => {
    // 23:30 UTC is already the next day in Kuwait (UTC+3).
    expect(formatShopperMoment("2026-11-29T23:30:00.000Z", "en")).toBe("Mon 30 Nov, 2:30 am");
  });
});
