/**
 * The courier's prices for a selection of orders added up in whole fils (no binary-fraction
 * drift): how many were priced in dinars and their total, and how many have no price.
 */
export interface PricedQuote {
  ok: boolean;
  price?: number | null;
  currency?: string | null;
}

export function quoteTotal(quotes: readonly PricedQuote[]): {
  priced: number;
  unpriced: number;
  totalKwd: number;
} {
  let fils = 0;
  let priced = 0;
  for (const quote of quotes) {
    const inKwd = quote.currency === "KWD" || quote.currency == null;
    if (!quote.ok || quote.price == null || !inKwd || !Number.isFinite(quote.price)) continue;
    fils += Math.round(quote.price * 1000);
    priced += 1;
  }
  return { priced, unpriced: quotes.length - priced, totalKwd: fils / 1000 };
}
