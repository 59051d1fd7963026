/** How many orders one "Send to courier" may carry; shared by the page and the server. */
export const BULK_LIMIT = 250;

/**
 * Orders per request when the Send page sends a selection: each is fulfilled in Shopify before
 * the answer, so a batch stays a second or two long however large the selection is.
 */
export const SEND_BATCH = 10;

/**
 * Orders one "Price the selection" asks the courier about: one courier call each, a few at a
 * time, so the answer comes within seconds.
 */
export const QUOTE_LIMIT = 25;
