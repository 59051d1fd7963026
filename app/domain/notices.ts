import { z } from "zod";
import {
  CourierAuthError,
  CourierCircuitOpenError,
  CourierTimeoutError,
  CourierUnavailableError,
  CourierValidationError,
  type CourierError,
} from "../courier/errors";
import type { SentenceParams } from "./timeline-text";

/**
 * What an action or a loader tells the merchant (an error, a refusal, a "wait") as a stable code
 * and data, never as a sentence (ADR 0045, after 0043's timeline sentences): the page renders
 * `notices:<code>` in its language, with the parameters by their name (`state` as the state's
 * label, `count` as a number, `reference` and `detail` as data). Its English (notice-english.server)
 * is for logs and the admin extensions' API only.
 */
export const NOTICE_CODES = [
  // General
  "failed",
  "invalid_form",
  "no_such_delivery",
  "delivery_changed",
  "connect_courier_first",
  "courier_key_unreadable",
  "request_not_built",
  "no_answer",
  // Cancelling (cancel.server, steps/cancel.server, cancel-page.server)
  "choose_fulfillment",
  "cancel_not_possible",
  "cancel_waits_for_step",
  "cancel_waits_for_courier",
  "cancel_refused",
  "cancel_delivery_first",
  "no_fulfillment",
  "shopify_unreachable",
  "shopify_said",
  "only_cancelled_send_again",
  "still_fulfilled_in_shopify",
  // Sending again with the customer's answer after a failed attempt (send-again-with-answer.server)
  "rescue_no_answer",
  "rescue_already_sent",
  "rescue_cancel_waits",
  // Sending again (retry.server)
  "only_rejected_send_again",
  "history_unreadable",
  "history_undetermined",
  "place_address_first",
  "place_unreadable",
  "shopify_fulfillment_gone",
  "confirm_pickup_first",
  // Sending and quoting (send.server, quote.server, sendable-orders.server)
  "send_batch_too_large",
  "quote_too_many",
  "select_at_least_one",
  "select_too_many",
  "shopify_orders_unavailable",
  "order_not_open",
  "no_shipping_address",
  "not_kuwait",
  "not_kwd",
  "nothing_to_fulfil",
  "no_pickup_address",
  "areas_not_loaded",
  "address_not_confident",
  "environment_not_configured",
  "courier_key_refused",
  "courier_not_answering",
  "courier_answer_unusable",
  "courier_said",
  "already_being_sent",
  "already_sent",
  // Mark created (mark-created.server)
  "enter_courier_number",
  "not_courier_number",
  "only_review_mark_created",
  "courier_lookup_failed",
  "courier_has_no_order",
  "order_for_other_delivery",
  "courier_order_linked_elsewhere",
  "marked_created",
  "found_in_history",
  // Address review (review.server): why an answer was not remembered
  "choose_governorate",
  "choose_area",
  "choose_area_of_governorate",
  "no_longer_waiting_address",
  "not_remembered_unreadable",
  "not_remembered_not_stored",
  "not_remembered_no_place_name",
  "not_remembered_no_gazetteer_area",
  // No block, no send (review.server; ADR 0052)
  "address_missing_block",
  "address_missing_street_or_house",
  "address_missing_block_and_street_or_house",
] as const;
export type NoticeCode = (typeof NOTICE_CODES)[number];

/** What crosses from an action or a loader to the page. */
export const noticeSchema = z.object({
  code: z.enum(NOTICE_CODES),
  params: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
});
export type Notice = z.input<typeof noticeSchema> & { code: NoticeCode };

export function notice(code: NoticeCode, params: SentenceParams = {}): Notice {
  return { code, params };
}

/** Parameters that are data: put into a sentence as they are, never translated. */
export const NOTICE_DATA_PARAMS = ["reference", "other", "detail", "number", "currency"] as const;

/**
 * A notice from what the page got: an unknown or malformed one (an older server, a changed
 * answer) reads as "the request could not be done", never as raw text.
 */
export function readNotice(value: unknown): z.output<typeof noticeSchema> {
  const parsed = noticeSchema.safeParse(value);
  return parsed.success ? parsed.data : { code: "failed", params: {} };
}

/**
 * A courier call's failure as the merchant is told it (a quote, a report): a refused key, a
 * courier not answering (timeout, outage, or its circuit open), the courier's own words as data
 * when it gave some, else an answer the app could not use.
 */
export function courierFailureNotice(error: CourierError): Notice {
  if (error instanceof CourierAuthError) return notice("courier_key_refused");
  if (
    error instanceof CourierUnavailableError ||
    error instanceof CourierTimeoutError ||
    error instanceof CourierCircuitOpenError
  )
    return notice("courier_not_answering");
  if (error instanceof CourierValidationError && error.courierMessage)
    return notice("courier_said", { detail: error.courierMessage.slice(0, 300) });
  return notice("courier_answer_unusable");
}
