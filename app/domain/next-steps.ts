/**
 * Home's "Next steps" (issue 29): what the merchant should do now, from the figures, most urgent
 * first, each with the page that does it. Nothing to do, no steps: the card says so.
 */

export const NEXT_STEP_KINDS = [
  "addresses",
  "refused",
  "unconfirmed",
  "stopped",
  "failed",
  "stuck",
  "cashDifferences",
] as const;
export type NextStepKind = (typeof NEXT_STEP_KINDS)[number];

export interface NextStep {
  kind: NextStepKind;
  count: number;
  /** Where the merchant does it. */
  to: string;
}

export interface NextStepFigures {
  /** Deliveries by state, for the states that wait for the merchant. */
  needsAddress: number;
  rejected: number;
  needsReview: number;
  needsAttention: number;
  failed: number;
  /** Tracked parcels that have not moved for three days. */
  stuck: number;
  /** Differences in the latest courier statement saved on the Cash page. */
  cashDifferences: number;
}

const list = (query: string) => `/app/deliveries?tab=attention&${query}`;

export function nextSteps(figures: NextStepFigures): NextStep[] {
  const steps: NextStep[] = [
    { kind: "addresses", count: figures.needsAddress, to: "/app/address-review" },
    { kind: "refused", count: figures.rejected, to: list("state=rejected") },
    { kind: "unconfirmed", count: figures.needsReview, to: list("state=needs_review") },
    { kind: "stopped", count: figures.needsAttention, to: list("state=needs_attention") },
    { kind: "failed", count: figures.failed, to: list("state=failed") },
    { kind: "stuck", count: figures.stuck, to: "/app/deliveries?tab=attention" },
    { kind: "cashDifferences", count: figures.cashDifferences, to: "/app/cash" },
  ];
  return steps.filter((step) => step.count > 0);
}
