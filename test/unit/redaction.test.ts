import { describe, expect, it } from "vitest";
import { redactDeliveryRequest } from "../../app/domain/redaction";

describe("redactDeliveryRequest", () => {
  it("empties the delivery address's contact and place and drops its coordinates", () => {
    const stored = JSON.stringify({
      pickupAddress: { contactName: "Store", contactPhone: "22223333" },
      deliveryAddress: {
        governanceId: 59,
        areaId: 3624,
        contactName: "Noura",
        contactPhone: "99887766",
        block: "3",
        street: "Tunis St",
        latitude: 29.3,
        longitude: 48.1,
        notes: "PACI 12345678",
      },
      notes: "SHPFY-9 · Shopify order #1009",
    });
    expect(redactDeliveryRequest(stored)).toEqual({
      pickupAddress: { contactName: "Store", contactPhone: "22223333" },
      deliveryAddress: {
        governanceId: 59,
        areaId: 3624,
        contactName: "",
        contactPhone: "",
        block: "",
        street: "",
        notes: "",
      },
      notes: "SHPFY-9 · Shopify order #1009",
    });
  });

  it.each([
    ["text that is not JSON", "Noura, Salmiya"],
    ["a JSON array", '["Noura"]'],
    ["a JSON string", '"Noura"'],
  ])("keeps nothing of %s", (_name, stored) => {
    expect(redactDeliveryRequest(stored)).toBeNull();
  });

  it("drops a delivery address that is not an object", () => {
    expect(redactDeliveryRequest('{"deliveryAddress":"Noura, Salmiya","notes":"x"}')).toEqual({
      deliveryAddress: null,
      notes: "x",
    });
  });
});
