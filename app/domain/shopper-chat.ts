import { normalizeKuwaitiPhone } from "./contact-phone";
import type { AskQuestion } from "./shopper-ask";

/**
 * The merchant's click-to-chat with a customer asked about their order (issue 27): WhatsApp's
 * `wa.me` link opens the merchant's own WhatsApp with the message written in the customer's
 * language, for merchants without WhatsApp Business. Pure.
 */
export type MessageLanguage = "ar" | "en";

/** The language to write to the customer in: Arabic when they shopped in Arabic, else English. */
export function messageLanguage(customerLocale: string | null): MessageLanguage {
  return /^ar(?:$|[-_])/i.test(customerLocale?.trim() ?? "") ? "ar" : "en";
}

const KUWAITI_MOBILE = /^\+965([569]\d{7})$/;

/**
 * The customer's number as wa.me wants it (country code and digits): a Kuwaiti mobile as
 * 965XXXXXXXX, another country's number only when written with its code (+ or 00). Null for a
 * Kuwaiti landline (2…), which has no WhatsApp, or anything else.
 */
export function customerWhatsappNumber(phone: string | null): string | null {
  if (!phone) return null;
  const kuwaiti = normalizeKuwaitiPhone(phone);
  if (kuwaiti) {
    const mobile = KUWAITI_MOBILE.exec(kuwaiti);
    return mobile ? `965${mobile[1]}` : null;
  }
  const written = phone.replace(/[\s\-().\u200e\u200f]/g, "");
  const international = /^(?:\+|00)(\d{8,15})$/.exec(written);
  if (!international || international[1]!.startsWith("965")) return null;
  return international[1]!;
}

const WORDS = {
  en: {
    hello: (shop: string | null) => (shop ? `Hello from ${shop}.` : "Hello."),
    order: (order: string | null) => (order ? `About your order ${order}:` : "About your order:"),
    address: "please confirm or correct your delivery address",
    cash: "please confirm you will pay cash on delivery",
    both: "please confirm your delivery address and cash on delivery",
    here: "here:",
  },
  ar: {
    hello: (shop: string | null) => (shop ? `مرحباً من ${shop}.` : "مرحباً."),
    order: (order: string | null) => (order ? `بخصوص طلبك ${order}:` : "بخصوص طلبك:"),
    address: "يرجى تأكيد عنوان التوصيل أو تصحيحه",
    cash: "يرجى تأكيد الدفع نقداً عند الاستلام",
    both: "يرجى تأكيد عنوان التوصيل والدفع نقداً عند الاستلام",
    here: "من هنا:",
  },
} as const;

/** The message to the customer: the shop, the order, what to do, and their page's link. */
export function shopperChatMessage(input: {
  language: MessageLanguage;
  shopName: string | null;
  orderName: string | null;
  questions: readonly AskQuestion[];
  link: string;
}): string {
  const words = WORDS[input.language];
  const address = input.questions.includes("address");
  const cash = input.questions.includes("cash");
  const what = address && cash ? words.both : cash ? words.cash : words.address;
  return `${words.hello(input.shopName?.trim() || null)} ${words.order(input.orderName)} ${what} ${words.here} ${input.link}`;
}

/** WhatsApp's click-to-chat link with the message filled in. */
export function whatsappChatUrl(number: string, message: string): string {
  return `https://wa.me/${number}?text=${encodeURIComponent(message)}`;
}
