/**
 * Issue 24 (7): real worker processes killed (SIGKILL) on the way from the courier's create to the
 * tracking number on Shopify, at least 60 times (soon after Shopify took the tracking write, soon
 * after the courier answered the create, at any moment), and stopped (SIGSTOP) past their lease
 * and resumed after another worker wrote the tracking (test/support/tracking-kills.ts). After
 * each, another worker takes the deliveries over. Figure: fulfillments whose tracking Shopify
 * accepted more than once (each a second shipping e-mail when "notify the customer" is on).
 */
import { killRounds, type KillPoint } from "../../test/support/tracking-kills";
import type { Log } from "../support/fault-courier";

/** 22 rounds of each point: 60 kills at least (a process may end before its kill lands). */
const ROUNDS = 88;
const POINTS: KillPoint[] = ["tracking-write", "courier-create", "anywhere", "stopped"];

export async function run(log: Log): Promise<Record<string, number>> {
  const result = await killRounds({ name: "faults-kills", rounds: ROUNDS, points: POINTS });
  for (const point of POINTS) {
    const of = result.byPoint[point];
    log(
      `${point}: ${of.rounds} rounds, ${of.fulfillments} fulfillments, ${of.rewritten} with the tracking written more than once`,
    );
  }
  log(
    `${result.kills} processes killed, ${result.stops} stopped and resumed: ${result.tracked} of ${result.fulfillments} fulfillments tracked, ${result.rewritten} written more than once`,
  );
  return {
    trackingKills: result.kills,
    trackingStops: result.stops,
    trackingRewritesAfterKill: result.rewritten,
  };
}
