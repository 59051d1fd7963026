import { describe, expect, it } from "vitest";
import {
  courierDownWaitMs,
  lateCommitWaitMs,
  notCreatedBelievedAt,
  SECOND_LOOK_MS,
  sendWindowMs,
} from "../../app/domain/courier-timing";

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 24, 9, 0, 0) + seconds * 1000);

describe("waiting on the courier", () => {
  it("waits two minutes for a late commit at the default 15 s time limit, and 64 s at 1 s", () => {
    expect(lateCommitWaitMs(15_000)).toBe(120_000);
    expect(lateCommitWaitMs(1_000)).toBe(64_000);
  });

  it("does not believe a create missing from the courier's history at the first check", () => {
    const next = notCreatedBelievedAt({
      sentAt: at(0),
      firstMissAt: null,
      now: at(5),
      lateCommitWaitMs: 120_000,
    });
    expect(next).toEqual(at(120));
  });

  it("believes it missing at a second check after the late-commit wait", () => {
    const input = { sentAt: at(0), firstMissAt: at(5), lateCommitWaitMs: 120_000 };
    expect(notCreatedBelievedAt({ ...input, now: at(119) })).toEqual(at(120));
    expect(notCreatedBelievedAt({ ...input, now: at(120) })).toBeNull();
  });

  it("checks twice, apart, even for a create sent long ago", () => {
    const input = { sentAt: at(-3600), lateCommitWaitMs: 120_000 };
    expect(notCreatedBelievedAt({ ...input, firstMissAt: null, now: at(0) })).toEqual(
      at(SECOND_LOOK_MS / 1000),
    );
    expect(notCreatedBelievedAt({ ...input, firstMissAt: at(0), now: at(10) })).toEqual(
      at(SECOND_LOOK_MS / 1000),
    );
  });

  it("sends within a quarter of the lease, at most two seconds after confirming it", () => {
    expect(sendWindowMs(145_000)).toBe(2_000);
    expect(sendWindowMs(2_000)).toBe(500);
  });

  it("waits for an unanswering courier as long as it has waited, from 15 s to 5 minutes", () => {
    expect(courierDownWaitMs(0)).toBe(15_000);
    expect(courierDownWaitMs(90_000)).toBe(90_000);
    expect(courierDownWaitMs(3_600_000)).toBe(300_000);
  });
});
