import { buildAddress, DEFAULT_LINE_ITEM } from "./addresses";
import { fromMinor, toMinor } from "./money";
import type { OrderInput, StandInLineItem, StandInLocation, StandInOrder } from "./records";
import { StandInError } from "./errors";
import type { StoreContext } from "./store";

// An order as a customer's checkout leaves it, and its routing to locations.

/** Which location ships each line item: what routing turns into fulfillment orders. */
export type Placement = { item: StandInLineItem; location: StandInLocation }[];

export function buildOrder(
  ctx: StoreContext,
  input: OrderInput,
  number: number,
  resolveLocation: (ref: number | string | undefined) => StandInLocation,
): { order: StandInOrder; placement: Placement } {
  const now = ctx.now();
  const createdAt = input.createdAt ? new Date(input.createdAt) : now;
  if (Number.isNaN(createdAt.getTime())) throw new StandInError("createdAt is not a date");
  const currencyCode = input.currencyCode ?? ctx.store.shop.currencyCode;
  const defaultLocation = resolveLocation(input.locationId);

  const lines = (input.lineItems ?? [{}]).map((line) => {
    const quantity = line.quantity ?? DEFAULT_LINE_ITEM.quantity;
    if (!Number.isInteger(quantity) || quantity < 1) {
      throw new StandInError(
        `A line item's quantity must be a whole number above 0, not ${quantity}`,
      );
    }
    const weight =
      line.grams !== undefined
        ? { value: line.grams, unit: "GRAMS" as const }
        : line.weight === undefined
          ? DEFAULT_LINE_ITEM.weight
          : line.weight;
    // A line that names its own product does not inherit the default product's variant and SKU.
    const base = line.title === undefined ? DEFAULT_LINE_ITEM : { variantTitle: null, sku: null };
    const item: StandInLineItem = {
      id: ctx.takeId(),
      variantId: ctx.takeId(),
      inventoryItemId: ctx.takeId(),
      title: line.title ?? DEFAULT_LINE_ITEM.title,
      variantTitle: line.variantTitle === undefined ? base.variantTitle : line.variantTitle,
      sku: line.sku === undefined ? base.sku : line.sku,
      vendor: line.vendor === undefined ? ctx.store.shop.name : line.vendor,
      quantity,
      price: fromMinor(toMinor(line.price ?? DEFAULT_LINE_ITEM.price, currencyCode), currencyCode),
      requiresShipping: line.requiresShipping ?? true,
      weight: weight ? { ...weight } : null,
    };
    const location =
      line.locationId === undefined ? defaultLocation : resolveLocation(line.locationId);
    return { item, location };
  });

  const subtotal = lines.reduce(
    (sum, { item }) => sum + toMinor(item.price, currencyCode) * item.quantity,
    0,
  );
  const shipping = toMinor(input.shippingPrice ?? "1.000", currencyCode);
  const total = subtotal + shipping;
  const cod = input.payment === "cod";

  const order: StandInOrder = {
    id: ctx.takeId(),
    number: number,
    name: `#${number}`,
    createdAt,
    updatedAt: createdAt,
    processedAt: createdAt,
    closedAt: null,
    cancelledAt: null,
    cancelReason: null,
    email: input.email === undefined ? "fatima@example.com" : input.email,
    phone: input.phone === undefined ? null : input.phone,
    customerLocale: input.customerLocale === undefined ? "en" : input.customerLocale,
    note: input.note ?? null,
    tags: input.tags ?? [],
    currencyCode,
    financialStatus: cod ? "PENDING" : "PAID",
    paymentGatewayNames:
      input.paymentGatewayNames ?? (cod ? ["Cash on Delivery (COD)"] : ["shopify_payments"]),
    subtotalPrice: fromMinor(subtotal, currencyCode),
    shippingPrice: fromMinor(shipping, currencyCode),
    totalPrice: fromMinor(total, currencyCode),
    totalOutstanding: fromMinor(cod ? total : 0, currencyCode),
    shippingAddress:
      input.shippingAddress === null
        ? null
        : buildAddress(ctx.takeId(), input.shippingAddress ?? {}),
    lineItems: lines.map((l) => l.item),
    fulfillmentOrders: [],
    fulfillments: [],
    metafields: [],
  };
  return { order, placement: lines };
}

/** One fulfillment order per location, in the order the locations first appear. */
export function routeOrder(ctx: StoreContext, order: StandInOrder, placement: Placement): void {
  const byLocation = new Map<number, StandInLineItem[]>();
  for (const { item, location } of placement) {
    if (!item.requiresShipping) continue;
    byLocation.set(location.id, [...(byLocation.get(location.id) ?? []), item]);
  }
  for (const [locationId, items] of byLocation) {
    order.fulfillmentOrders.push(
      ctx.newFulfillmentOrder(
        order,
        locationId,
        items.map((i) => [i, i.quantity]),
      ),
    );
  }
}
