import type { StandInCarrierService } from "./carrier-services";
import { type Args, connection, type PageArgs, type View } from "./connection";
import { mutationFields } from "./mutations";
import { orderMatches, orderSortValue, sortOrders } from "./order-search";
import type { ShopifyStandInStore } from "./store";
import { idArg, Views } from "./views";

// Resolvers for the schema subset: the root fields, reading through the views (views.ts) and
// changing the store through its operations (mutations.ts).

// --- Root fields ----------------------------------------------------------------------------------

/** The root object graphql-js resolves queries and mutations from. */
export function rootValue(store: ShopifyStandInStore): View {
  const views = new Views(store);
  const root: View = {
    shop: () => views.shop(),
    node: (args: Args) => views.node(String(args.id)),
    nodes: (args: Args) => (args.ids as string[]).map((id) => views.node(id)),
    order: (args: Args) => {
      const id = idArg(args.id, "Order");
      const order = id === null ? undefined : store.findOrder(id);
      return order ? views.order(order) : null;
    },
    orders: (args: Args & PageArgs) => {
      const orders = sortOrders(
        store
          .orders()
          .filter((o) => orderMatches(store, o, typeof args.query === "string" ? args.query : "")),
        String(args.sortKey ?? "PROCESSED_AT"),
      );
      return connection(
        orders,
        args,
        (o) => o.id,
        (o) => views.order(o),
        (o) => orderSortValue(o, String(args.sortKey ?? "PROCESSED_AT")),
      );
    },
    location: (args: Args) => {
      if (args.id === undefined || args.id === null) {
        const primary = store.locations()[0];
        return primary ? views.location(primary) : null;
      }
      const id = idArg(args.id, "Location");
      const location = id === null ? undefined : store.findLocation(id);
      return location ? views.location(location) : null;
    },
    locations: (args: Args & PageArgs) => {
      const name =
        typeof args.query === "string"
          ? /name:(\S+)/.exec(args.query)?.[1]?.toLowerCase()
          : undefined;
      const locations = store
        .locations()
        .filter((l) => args.includeInactive === true || l.isActive)
        .filter((l) => !name || l.name.toLowerCase().includes(name.replace(/\*$/, "")));
      const sorted =
        args.sortKey === "ID"
          ? [...locations]
          : [...locations].sort((a, b) => a.name.localeCompare(b.name));
      return connection(
        sorted,
        args,
        (l) => l.id,
        (l) => views.location(l),
        (l) => l.name,
      );
    },
    fulfillment: (args: Args) => {
      const id = idArg(args.id, "Fulfillment");
      const fulfillment = id === null ? undefined : store.findFulfillment(id);
      return fulfillment ? views.fulfillment(fulfillment) : null;
    },
    carrierService: (args: Args) => {
      const id = idArg(args.id, "DeliveryCarrierService");
      const service = id === null ? undefined : store.shipping.findCarrierService(id);
      return service ? views.carrierService(service) : null;
    },
    carrierServices: (args: Args & PageArgs) => {
      // Shopify's search syntax here knows `active:` and `id:`; the stand-in takes `active:` only.
      const active =
        typeof args.query === "string" ? /active:(true|false)/.exec(args.query)?.[1] : undefined;
      const services = store.shipping
        .carrierServices()
        .filter((s) => active === undefined || String(s.active) === active);
      const key = String(args.sortKey ?? "ID");
      const sortValue = (s: StandInCarrierService) =>
        key === "CREATED_AT"
          ? s.createdAt.getTime()
          : key === "UPDATED_AT"
            ? s.updatedAt.getTime()
            : s.id;
      return connection(
        [...services].sort((a, b) => sortValue(a) - sortValue(b) || a.id - b.id),
        args,
        (s) => s.id,
        (s) => views.carrierService(s),
        sortValue,
      );
    },
    fulfillmentOrder: (args: Args) => {
      const id = idArg(args.id, "FulfillmentOrder");
      const fo = id === null ? undefined : store.findFulfillmentOrder(id);
      return fo ? views.fulfillmentOrder(fo) : null;
    },

    ...mutationFields(store, views, () => root),
  };
  return root;
}
