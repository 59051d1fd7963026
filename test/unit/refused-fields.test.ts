import { describe, expect, it } from "vitest";
import { refusedFields } from "../../app/domain/timeline";

const refusal = (courier: Record<string, unknown>) => ({ courier });

describe("the parts a courier's refusal names", () => {
  it("reads its list of field errors by the fields' own names", () => {
    expect(
      refusedFields(
        refusal({
          error: "CourierValidationError",
          fieldErrors: [
            { field: "deliveryAddress.block", message: "must not be empty" },
            { field: "deliveryAddress.contactPhone", message: "is not a valid number" },
            { field: "packageDetails.weight", message: "must be above 0" },
          ],
        }),
      ),
    ).toEqual(["block", "phone", "weight"]);
  });

  it("reads its message when it sent no list", () => {
    expect(refusedFields(refusal({ message: "Block is required for this area." }))).toEqual([
      "block",
    ]);
    expect(
      refusedFields(
        refusal({ message: "Validation failed: deliveryAddress.block must not be empty" }),
      ),
    ).toEqual(["block"]);
    expect(
      refusedFields(refusal({ message: "deliveryAddress.areaId 999 is not an area" })),
    ).toEqual(["area"]);
  });

  it("tells the merchant's own pickup address apart from the customer's", () => {
    expect(
      refusedFields(refusal({ errors: [{ field: "pickupAddress.block", message: "required" }] })),
    ).toEqual(["pickup"]);
  });

  it("names nothing it does not know", () => {
    expect(refusedFields(refusal({ message: "Internal error, try later" }))).toEqual([]);
    expect(refusedFields({ text: { key: "x", params: {} } })).toEqual([]);
    expect(refusedFields(null)).toEqual([]);
  });
});
