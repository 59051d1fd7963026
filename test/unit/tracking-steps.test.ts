import { describe, expect, it } from "vitest";
import { Unreadable } from "../../app/domain/json-column";
import { trackingSteps, type TimelineEvent } from "../../app/domain/tracking-steps";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 8, minute));
const courier = (minute: number, state: string): TimelineEvent => ({
  at: at(minute + 1),
  kind: "courier_status",
  data: { status: state, state, at: at(minute).toISOString() },
});

describe("the shopper's tracking steps", () => {
  it("lists booking once, then pickup, without the app's own tracking-number step", () => {
    const steps = trackingSteps(
      [
        { at: at(0), kind: "received", data: null },
        { at: at(1), kind: "created", data: null },
        { at: at(2), kind: "tracking", data: null },
        { at: at(3), kind: "reconciled", data: null },
        courier(10, "picked_up"),
      ],
      "picked_up",
    );
    expect(steps.done.map((s) => s.step)).toEqual(["booked", "picked_up"]);
    expect(steps.ahead).toEqual(["in_transit", "out_for_delivery", "delivered"]);
    expect(steps.outcome).toBeNull();
  });

  it("orders steps by the journey when the courier's clock runs behind the app's", () => {
    const steps = trackingSteps(
      [
        { at: at(5), kind: "created", data: null },
        courier(4, "picked_up"),
        courier(30, "delivered"),
      ],
      "delivered",
    );
    expect(steps.done.map((s) => s.step)).toEqual(["booked", "picked_up", "delivered"]);
    expect(steps.outcome).toBe("delivered");
    expect(steps.ahead).toEqual([]);
  });

  it("ends on a failed delivery, with nothing ahead", () => {
    const steps = trackingSteps(
      [
        { at: at(0), kind: "created", data: null },
        courier(20, "out_for_delivery"),
        courier(40, "failed"),
      ],
      "failed",
    );
    expect(steps.done.at(-1)?.step).toBe("failed");
    expect(steps.outcome).toBe("failed");
    expect(steps.ahead).toEqual([]);
  });

  it("shows the delivery's current state even when its status event is missing", () => {
    const steps = trackingSteps([{ at: at(0), kind: "created", data: null }], "out_for_delivery");
    expect(steps.done.map((s) => s.step)).toEqual(["booked", "out_for_delivery"]);
    expect(steps.ahead).toEqual(["delivered"]);
  });

  it("ignores a courier event whose data cannot be read", () => {
    const steps = trackingSteps(
      [
        { at: at(0), kind: "created", data: null },
        {
          at: at(1),
          kind: "courier_status",
          data: new Unreadable("DeliveryEvent.data", "not JSON", "{"),
        },
      ],
      "created",
    );
    expect(steps.done.map((s) => s.step)).toEqual(["booked"]);
  });
});
