/**
 * A privacy request's outcome as the page says it. The outcome is stored as the sentence the
 * app wrote when it carried the request out (models/privacy.server.ts); this reads its figures
 * back so the page can say it in its own language. A sentence of another form is kept as it is.
 */
export type PrivacyOutcome =
  | { key: "held"; deliveries: number }
  | { key: "erased"; deliveries: number; cancelled: number; uncertain: number }
  | { key: "other"; text: string };

const HELD = /^(\d+) deliver(?:y|ies) held for these orders/;
const ERASED = /^Personal data erased from (\d+) deliver(?:y|ies)/;

export function readPrivacyOutcome(outcome: string): PrivacyOutcome {
  const held = HELD.exec(outcome);
  if (held) return { key: "held", deliveries: Number(held[1]) };
  const erased = ERASED.exec(outcome);
  if (erased) {
    const cancelled = /\((\d+) not yet sent, cancelled\)/.exec(outcome);
    const uncertain = /\((\d+) of uncertain outcome/.exec(outcome);
    return {
      key: "erased",
      deliveries: Number(erased[1]),
      cancelled: cancelled ? Number(cancelled[1]) : 0,
      uncertain: uncertain ? Number(uncertain[1]) : 0,
    };
  }
  return { key: "other", text: outcome };
}
