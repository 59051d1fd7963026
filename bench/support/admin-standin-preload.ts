// Preloaded into a built server for bench:faults' busy intake (bench/faults/busy-intake.ts):
//   node --import tsx --import <this file> server.js
// The app's Admin API calls are answered in process by the test stand-in (test/support/admin-api):
// every fulfillment is an order of two abayas to Salmiya, and tracking updates are accepted.
import { adminApi } from "../../test/support/admin-api";
import { programShopify, type FakeOrder } from "../../test/support/pipeline";

adminApi.install();
const orders: FakeOrder[] = [];
programShopify(orders);
// programShopify answers the orders it was given: give it each one as it is asked for.
const handlers = (
  adminApi as unknown as {
    handlers: Map<string, (v: Record<string, unknown>, c: unknown) => unknown>;
  }
).handlers;
const answer = handlers.get("DeliveryFulfillment")!;
adminApi.on("DeliveryFulfillment", (variables, call) => {
  const number = Number(String(variables.id).split("/").pop());
  if (!orders.some((o) => o.fulfillmentNumber === number)) {
    orders.push({
      fulfillmentNumber: number,
      orderNumber: number,
      city: "Salmiya",
      address1: "Block 10, Street 5, House 12",
      provinceCode: "KW-HA",
    });
  }
  return answer(variables, call) as ReturnType<Parameters<typeof adminApi.on>[1]>;
});
