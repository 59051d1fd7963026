import { describe, expect, it } from "vitest";
import { whyNoLabel } from "../../app/domain/label-availability";
import type { DeliveryState } from "../../app/domain/states";

const at = (state: DeliveryState, courierOrderNumber: string | null = "KW100001") =>
  whyNoLabel({ state, courierOrderNumber });

describe("why a delivery has no label", () => {
  it("has none to explain for a parcel at the courier, a failed attempt included", () => {
    for (const state of [
      "created",
      "picked_up",
      "in_transit",
      "out_for_delivery",
      "failed",
    ] as const)
      expect(at(state)).toBeNull();
  });

  it("names a delivered, returned or cancelled parcel as such", () => {
    expect([at("delivered"), at("returned"), at("cancelled")]).toEqual([
      "delivered",
      "returned",
      "cancelled",
    ]);
  });

  it("calls a delivery cancelled before the courier created it cancelled, not coming", () => {
    expect(at("cancelled", null)).toBe("cancelled");
  });

  it("sends the merchant to the address, the refusal or the delivery's page when it waits on them", () => {
    expect(at("needs_address", null)).toBe("needs_address");
    expect(at("rejected", null)).toBe("refused");
    expect([at("needs_attention"), at("unknown", null), at("needs_review", null)]).toEqual([
      "needs_attention",
      "needs_attention",
      "needs_attention",
    ]);
  });

  it("says a delivery on its way to the courier will have one, and a skipped one will not", () => {
    expect([at("pending", null), at("ready", null), at("creating", null)]).toEqual([
      "not_yet",
      "not_yet",
      "not_yet",
    ]);
    expect(at("skipped", null)).toBe("skipped");
  });
});
