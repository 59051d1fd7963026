/** How many orders one "Send to courier" may carry; shared by the page and the server. */
export const BULK_LIMIT = 250;
