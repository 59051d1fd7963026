import { JOURNEY } from "../../domain/tracking-steps";
import type { Language } from "../../i18n/config";
import { formatShopperDay, formatShopperMoment } from "../../i18n/format";
import type { AddressDoubt } from "../../addresses";
import { areaName, governorateName } from "../../i18n/place-names";
import type { ShopperPageView } from "../../shopper/page.server";
import type { AreaOption, PageStep, ShopperPageDisplay } from "./view";

/**
 * The shopper's page as it is shown (view.ts), from what the app knows of the order: in the
 * page's language, every day and time written here, on the server, in Kuwait's time. Server-only
 * (.server) because the gazetteer's names stay out of the browser's bundle.
 */
export function shopperPageDisplay(view: ShopperPageView, language: Language): ShopperPageDisplay {
  const other: Language = language === "ar" ? "en" : "ar";
  const collator = new Intl.Collator(language);
  const tracking = view.tracking;
  return {
    shopName: view.shop.name,
    contact: {
      whatsapp: view.shop.whatsapp,
      phone: view.shop.phone
        ? { text: view.shop.phone, href: `tel:${view.shop.phone.replace(/[^\d+]/g, "")}` }
        : null,
      email: view.shop.email,
    },
    orderName: view.orderName,
    items: view.items,
    cash: view.cashToCollect,
    phone: view.phone,
    steps: stepsOf(view, language),
    trackingNumber: tracking?.number ?? null,
    outcome: tracking?.outcome ?? null,
    expectedDay: tracking?.expectedDay ? formatShopperDay(tracking.expectedDay, language) : null,
    question: view.question && {
      asksAddress: view.question.questions.includes("address"),
      asksCash: view.question.questions.includes("cash") && !view.answered?.cashConfirmed,
      reasons: view.question.reasons,
      doubt: view.question.doubt && doubtForShopper(view.question.doubt, language),
      answerBy: view.question.answerBy && formatShopperMoment(view.question.answerBy, language),
    },
    answered: view.answered && {
      kind: view.answered.kind,
      cashConfirmed: view.answered.cashConfirmed,
      at: formatShopperMoment(view.answered.at, language),
      when: view.answered.availability
        ? {
            day: formatShopperDay(view.answered.availability.day, language),
            part: view.answered.availability.part,
            note: view.answered.availability.note,
          }
        : null,
    },
    secondChance: view.secondChance
      ? {
          days: view.secondChance.days.map((day) => ({
            value: day,
            label: formatShopperDay(day, language),
          })),
        }
      : null,
    place: view.place && {
      governanceId: view.place.governanceId,
      areaId: view.place.areaId,
      governorate: view.place.governorate[language],
      area: view.place.area[language],
      parts: view.place.parts,
      complete: view.place.complete,
    },
    typed: view.typed,
    canChange: view.canChange,
    refusal: view.refusal,
    choices: view.choices && {
      governorates: view.choices.governorates
        .map((g) => ({ id: g.id, name: g[language] }))
        .sort((a, b) => collator.compare(a.name, b.name)),
      areas: view.choices.areas
        .map((a): AreaOption => {
          const name = a[language] ?? areaName(a.courierName, language);
          const otherName = a[other] ?? areaName(a.courierName, other);
          return {
            id: a.id,
            governanceId: a.governanceId,
            name,
            otherName: otherName === name ? null : otherName,
            search: a.search,
          };
        })
        .sort((a, b) => collator.compare(a.name, b.name)),
    },
  };
}

/** Before pickup the shopper still expects every step of the parcel's journey. */
const BEFORE_BOOKING = JOURNEY.slice(0, 5);

function stepsOf(view: ShopperPageView, language: Language): ShopperPageDisplay["steps"] {
  const tracking = view.tracking;
  if (!tracking) {
    if (view.refusal === "cancelled") return [];
    return [
      { step: "received" as PageStep, when: null, now: true, done: true },
      ...BEFORE_BOOKING.map((step) => ({ step, when: null, now: false, done: false })),
    ];
  }
  const current = tracking.done.at(-1)?.step;
  return [
    ...tracking.done.map(({ step, at }) => ({
      step,
      when: formatShopperMoment(at, language),
      now: step === current,
      done: true,
    })),
    ...tracking.ahead.map((step) => ({ step, when: null, now: false, done: false })),
  ];
}

/** The doubt's sentence parameters with the areas and the governorate in the page's language. */
function doubtForShopper(
  doubt: AddressDoubt,
  language: Language,
): { kind: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  if ("areas" in doubt) {
    params.area = areaName(doubt.areas[0] ?? "", language);
    params.other = areaName(doubt.areas[1] ?? "", language);
  }
  if ("area" in doubt) params.area = areaName(doubt.area, language);
  if ("governorate" in doubt) params.governorate = governorateName(doubt.governorate, language);
  if ("typed" in doubt) params.typed = doubt.typed;
  return { kind: doubt.kind, params };
}
