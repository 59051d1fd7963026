import type { MessageLanguage } from "./shopper-chat";

/**
 * WhatsApp messages to the shopper (issue 27, ADR 0058). Pure: what each message is, the
 * template it is sent with and its parameters, when it may go (quiet hours in Kuwait time, a
 * cap per order per day), and how Meta's status callbacks move it.
 *
 *   queued ─► sending ─► sent ─► delivered ─► read
 *     │          │   └─► unconfirmed ─► sent …    (no answer from Meta: its callback decides)
 *     │          └─► queued (a retry: Meta said it was not sent)
 *     │          └─► failed                        (refused for good, or Meta's failed callback)
 *     └─► skipped                                  (opted out, cap, no mobile number, not connected)
 */
export const MESSAGE_PURPOSES = [
  "address_check",
  "cash_confirmation",
  "out_for_delivery",
  "failed_attempt",
] as const;
export type MessagePurpose = (typeof MESSAGE_PURPOSES)[number];

export const MESSAGE_STATES = [
  "queued",
  "sending",
  "unconfirmed",
  "sent",
  "delivered",
  "read",
  "failed",
  "skipped",
] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

/** States the message loop still has work in. */
export const PENDING_MESSAGE_STATES: readonly MessageState[] = ["queued", "sending", "unconfirmed"];

export type SkipReason =
  | "opted_out"
  | "daily_cap"
  | "no_mobile"
  | "not_connected"
  | "no_template"
  | "erased"
  | "question_closed";

/** One message per question: the row's key, unique per shop. */
export function messageDedupeKey(
  purpose: MessagePurpose,
  subject: { askId: string; round: number } | { deliveryId: string },
): string {
  return "askId" in subject
    ? `ask:${subject.askId}:${subject.round}:${purpose}`
    : `delivery:${subject.deliveryId}:${purpose}`;
}

export type TemplateNames = Record<MessagePurpose, Record<MessageLanguage, string>>;

/** The names the app suggests (and the stand-in approves): the purpose itself, in each language. */
export const DEFAULT_TEMPLATE_NAMES: TemplateNames = {
  address_check: { ar: "address_check", en: "address_check" },
  cash_confirmation: { ar: "cash_confirmation", en: "cash_confirmation" },
  out_for_delivery: { ar: "out_for_delivery", en: "out_for_delivery" },
  failed_attempt: { ar: "failed_attempt", en: "failed_attempt" },
};

export interface MessageFacts {
  shopName: string;
  orderName: string;
  /** The cash to collect, written as the shopper reads it ("36.500 KWD"); cash_confirmation only. */
  cash?: string;
  /** The shopper's page token: the template's URL button is `<app>/tracking/{{1}}`. */
  token: string;
}

/** `{{1}}`, `{{2}}`… of each template's body, in order; the button's parameter is the token. */
export function templateParameters(purpose: MessagePurpose, facts: MessageFacts): string[] {
  const shop = facts.shopName.trim() || "-";
  const order = facts.orderName.trim() || "-";
  return purpose === "cash_confirmation" ? [shop, order, facts.cash ?? "-"] : [shop, order];
}

/**
 * The body the merchant submits to WhatsApp Manager for each template, shown in Settings as the
 * message's preview; `{{n}}` are the parameters above, the button opens the shopper's page.
 */
export const TEMPLATE_BODIES: Record<MessagePurpose, Record<MessageLanguage, string>> = {
  address_check: {
    en: "Hello from {{1}}. Before we send your order {{2}}, please confirm or correct your delivery address.",
    ar: "مرحباً من {{1}}. قبل أن نرسل طلبك {{2}}، يرجى تأكيد عنوان التوصيل أو تصحيحه.",
  },
  cash_confirmation: {
    en: "Hello from {{1}}. Your order {{2}} will be paid in cash on delivery: {{3}}. Please confirm.",
    ar: "مرحباً من {{1}}. طلبك {{2}} يُدفع نقداً عند الاستلام: {{3}}. يرجى التأكيد.",
  },
  out_for_delivery: {
    en: "Hello from {{1}}. Your order {{2}} is out for delivery today. Follow it here.",
    ar: "مرحباً من {{1}}. طلبك {{2}} في الطريق إليك اليوم. تابعه من هنا.",
  },
  failed_attempt: {
    en: "Hello from {{1}}. The courier could not deliver your order {{2}}. Please check your address and phone and tell us when you will be in.",
    ar: "مرحباً من {{1}}. لم يتمكن المندوب من توصيل طلبك {{2}}. يرجى مراجعة العنوان ورقم الهاتف وإخبارنا متى تكون متواجداً.",
  },
};

export const TEMPLATE_BUTTON_TEXT: Record<MessageLanguage, string> = {
  en: "Open my order",
  ar: "افتح طلبي",
};

/** The preview of a message: its template's body with the parameters put in. */
export function messagePreview(
  purpose: MessagePurpose,
  language: MessageLanguage,
  facts: MessageFacts,
): string {
  const parameters = templateParameters(purpose, facts);
  return TEMPLATE_BODIES[purpose][language].replace(
    /\{\{(\d+)\}\}/g,
    (whole, n: string) => parameters[Number(n) - 1] ?? whole,
  );
}

const KUWAIT_OFFSET_MS = 3 * 3_600_000;
const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;

/** Minutes after midnight in Kuwait (UTC+3, no daylight saving). */
export function kuwaitMinuteOfDay(at: Date): number {
  const local = new Date(at.getTime() + KUWAIT_OFFSET_MS);
  return local.getUTCHours() * 60 + local.getUTCMinutes();
}

export interface QuietHours {
  /** Minutes after midnight, Kuwait time: quiet from this minute… */
  from: number;
  /** …until this one (may be the next morning). Equal: no quiet hours. */
  until: number;
}

export const DEFAULT_QUIET_HOURS: QuietHours = { from: 21 * 60, until: 9 * 60 };

function inQuiet(minute: number, quiet: QuietHours): boolean {
  if (quiet.from === quiet.until) return false;
  return quiet.from < quiet.until
    ? minute >= quiet.from && minute < quiet.until
    : minute >= quiet.from || minute < quiet.until;
}

/** The first instant at or after `at` outside the quiet hours: `at` itself when not quiet. */
export function firstSendableAt(at: Date, quiet: QuietHours): Date {
  const minute = kuwaitMinuteOfDay(at);
  if (!inQuiet(minute, quiet)) return at;
  const wait = (quiet.until - minute + DAY_MINUTES) % DAY_MINUTES;
  const startOfMinute = at.getTime() - (at.getTime() % MINUTE_MS);
  return new Date(startOfMinute + wait * MINUTE_MS);
}

/** Midnight of the Kuwaiti day `at` falls in, as an instant: the daily cap counts from there. */
export function kuwaitDayStart(at: Date): Date {
  const local = at.getTime() + KUWAIT_OFFSET_MS;
  return new Date(local - (local % (DAY_MINUTES * MINUTE_MS)) - KUWAIT_OFFSET_MS);
}

const STATUS_RANK: Record<"sent" | "delivered" | "read", number> = {
  sent: 1,
  delivered: 2,
  read: 3,
};

/**
 * The state after a status callback: callbacks come out of order and more than once, so a
 * message only moves forward (sent → delivered → read); `failed` wins over a send not yet seen
 * delivered, never over delivered or read. Null when the callback changes nothing.
 */
export function stateAfterStatus(
  current: MessageState,
  status: "sent" | "delivered" | "read" | "failed",
): MessageState | null {
  if (current === "skipped") return null;
  if (status === "failed") {
    return current === "delivered" || current === "read" || current === "failed" ? null : "failed";
  }
  if (current === "failed") return null;
  const rank = (state: MessageState) =>
    state === "sent" || state === "delivered" || state === "read" ? STATUS_RANK[state] : 0;
  return STATUS_RANK[status] > rank(current) ? status : null;
}

const STOP_WORDS = new Set([
  "stop",
  "unsubscribe",
  "cancel",
  "إيقاف",
  "ايقاف",
  "توقف",
  "الغاء",
  "إلغاء",
  "وقف",
]);

/** A reply that asks for no more messages ("STOP", «إيقاف»), alone in the message. */
export function isStopReply(text: string): boolean {
  return STOP_WORDS.has(
    text
      .trim()
      .toLowerCase()
      .replace(/[.!؟?]+$/u, ""),
  );
}
