import { describe, expect, it } from "vitest";
import { leaseMsFor, leaseNeedsRenewal } from "../../app/domain/lease-policy";

const leaseMs = leaseMsFor(15_000);
const takenAt = new Date("2026-11-28T10:00:00Z");
const expiresAt = new Date(takenAt.getTime() + leaseMs);
const after = (ms: number) => new Date(takenAt.getTime() + ms);

describe("a batch's lease before a look", () => {
  it("is kept as it is when the look starts soon after the claim", () => {
    expect(leaseNeedsRenewal(expiresAt, after(2_000), leaseMs)).toBe(false);
  });

  it("is renewed once half the margin has gone by", () => {
    expect(leaseNeedsRenewal(expiresAt, after(31_000), leaseMs)).toBe(true);
  });

  it("is renewed when it lapsed", () => {
    expect(leaseNeedsRenewal(expiresAt, after(leaseMs + 1), leaseMs)).toBe(true);
  });

  it("is taken when the row has none", () => {
    expect(leaseNeedsRenewal(null, takenAt, leaseMs)).toBe(true);
  });
});
