import { describe, expect, it } from "vitest";
import {
  admission,
  afterAnswer,
  afterNoAnswer,
  CLOSED_CIRCUIT,
  circuitOf,
  FAILURES_TO_OPEN,
  OPEN_MS,
  startTrial,
  type CircuitState,
} from "../../app/courier/circuit";

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 24, 9, 0, seconds));

function unanswered(times: number, from: CircuitState = CLOSED_CIRCUIT) {
  let circuit = from;
  for (let i = 0; i < times; i += 1) circuit = afterNoAnswer(circuit, at(0), "HTTP 503", false);
  return circuit;
}

describe("a courier account's circuit", () => {
  it("lets calls through while fewer than five in a row went unanswered", () => {
    const circuit = unanswered(FAILURES_TO_OPEN - 1);
    expect(circuit.state).toBe("closed");
    expect(admission(circuit, at(0))).toEqual({ go: true, trial: false });
  });

  it("opens at the fifth unanswered call and refuses calls until its wait is over", () => {
    const circuit = unanswered(FAILURES_TO_OPEN);
    expect(circuit).toMatchObject({ state: "open", opens: 1, openUntil: at(15) });
    expect(admission(circuit, at(14))).toEqual({ go: false, retryAt: at(15) });
  });

  it("lets one trial call through once its wait is over, and turns the others away meanwhile", () => {
    const circuit = unanswered(FAILURES_TO_OPEN);
    expect(admission(circuit, at(15))).toEqual({ go: true, trial: true });
    const trying = startTrial(circuit, at(60));
    expect(admission(trying, at(16))).toEqual({ go: false, retryAt: at(21) });
  });

  it("opens again for 15 s when the trial goes unanswered, however long the outage", () => {
    // Waits that grew to 5 minutes found a courier back minutes late (issue 24).
    let circuit = unanswered(FAILURES_TO_OPEN);
    for (let trial = 0; trial < 20; trial += 1)
      circuit = afterNoAnswer(startTrial(circuit, at(60)), at(20), "", true);
    expect(circuit).toMatchObject({ state: "open", openUntil: at(35), trialUntil: null });
    expect(OPEN_MS).toBe(15_000);
  });

  it("only counts a call that went out before others opened it", () => {
    const open = unanswered(FAILURES_TO_OPEN);
    expect(afterNoAnswer(open, at(5), "", false)).toMatchObject({
      opens: 1,
      openUntil: at(15),
      failures: FAILURES_TO_OPEN + 1,
    });
  });

  it("closes and counts from zero when the courier answers", () => {
    expect(afterAnswer()).toEqual(CLOSED_CIRCUIT);
  });

  it("keeps creates apart from every other call", () => {
    expect([circuitOf("createOrder"), circuitOf("createBulk")]).toEqual(["create", "create"]);
    expect([circuitOf("history"), circuitOf("cancel"), circuitOf("track")]).toEqual([
      "other",
      "other",
      "other",
    ]);
  });
});
