import { randomUUID } from "node:crypto";
import { GraphQLError } from "graphql";
import type { CarrierServiceInput } from "./carrier-services";
import type { Args, View } from "./connection";
import { gid } from "./ids";
import type { ShopifyStandInStore } from "./store";
import {
  FULFILLMENT_EVENT_STATUSES,
  ORDER_CANCEL_REASONS,
  type FulfillmentEventStatus,
  type FulfillmentHoldReason,
  type MetafieldInput,
  type OrderUpdateInput,
  type Outcome,
  type StandInFulfillment,
  type TrackingInput,
  type UserErrorRecord,
} from "./records";
import { idArg, type Views } from "./views";

/**
 * The mutation root fields: each turns its arguments into a store operation (`try*`, shared with
 * the merchant's actions) and its outcome into Shopify's payload with `userErrors`.
 */
export function mutationFields(store: ShopifyStandInStore, views: Views, root: () => View): View {
  return {
    fulfillmentCreate: (args: Args) => {
      const input = args.fulfillment as {
        lineItemsByFulfillmentOrder: {
          fulfillmentOrderId: string;
          fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null;
        }[];
        notifyCustomer?: boolean | null;
        trackingInfo?: TrackingInput | null;
        originAddress?: StandInFulfillment["originAddress"];
      };
      const outcome = store.tryCreateFulfillment({
        lineItemsByFulfillmentOrder: input.lineItemsByFulfillmentOrder.map((entry) => ({
          fulfillmentOrderId: idArg(entry.fulfillmentOrderId, "FulfillmentOrder") ?? -1,
          fulfillmentOrderLineItems:
            entry.fulfillmentOrderLineItems?.map((l) => ({
              id: idArg(l.id, "FulfillmentOrderLineItem") ?? -1,
              quantity: l.quantity,
            })) ?? null,
        })),
        notifyCustomer: input.notifyCustomer ?? false,
        trackingInfo: input.trackingInfo ?? null,
        originAddress: input.originAddress
          ? {
              address1: input.originAddress.address1 ?? null,
              address2: input.originAddress.address2 ?? null,
              city: input.originAddress.city ?? null,
              countryCode: input.originAddress.countryCode,
              provinceCode: input.originAddress.provinceCode ?? null,
              zip: input.originAddress.zip ?? null,
            }
          : null,
        message: typeof args.message === "string" ? args.message : null,
      });
      return payload(outcome, "fulfillment", (f) => views.fulfillment(f));
    },
    fulfillmentTrackingInfoUpdate: (args: Args) => {
      const id = idArg(args.fulfillmentId, "Fulfillment") ?? -1;
      const outcome = store.tryUpdateTracking(
        id,
        args.trackingInfoInput as TrackingInput,
        args.notifyCustomer as boolean | null | undefined,
      );
      return payload(outcome, "fulfillment", (f) => views.fulfillment(f));
    },
    fulfillmentEventCreate: (args: Args) => {
      const input = args.fulfillmentEvent as Record<string, unknown> & {
        fulfillmentId: string;
        status: string;
      };
      if (!(FULFILLMENT_EVENT_STATUSES as readonly string[]).includes(input.status)) {
        throw new GraphQLError(`Unknown fulfillment event status ${input.status}`);
      }
      const outcome = store.tryCreateFulfillmentEvent(
        idArg(input.fulfillmentId, "Fulfillment") ?? -1,
        {
          status: input.status as FulfillmentEventStatus,
          happenedAt: (input.happenedAt as Date | null | undefined) ?? null,
          estimatedDeliveryAt: (input.estimatedDeliveryAt as Date | null | undefined) ?? null,
          message: (input.message as string | null | undefined) ?? null,
          address1: (input.address1 as string | null | undefined) ?? null,
          city: (input.city as string | null | undefined) ?? null,
          province: (input.province as string | null | undefined) ?? null,
          country: (input.country as string | null | undefined) ?? null,
          zip: (input.zip as string | null | undefined) ?? null,
          latitude: (input.latitude as number | null | undefined) ?? null,
          longitude: (input.longitude as number | null | undefined) ?? null,
        },
      );
      return payload(outcome, "fulfillmentEvent", (e) => views.fulfillmentEvent(e));
    },
    fulfillmentCancel: (args: Args) => {
      const outcome = store.tryCancelFulfillment(idArg(args.id, "Fulfillment") ?? -1);
      return payload(outcome, "fulfillment", (f) => views.fulfillment(f));
    },
    carrierServiceCreate: (args: Args) => {
      const input = args.input as {
        name: string;
        callbackUrl: string;
        active: boolean;
        supportsServiceDiscovery: boolean;
      };
      const outcome = store.shipping.tryCreate(input);
      if (!outcome.ok) return { carrierService: null, userErrors: coded(outcome.userErrors) };
      return { carrierService: views.carrierService(outcome.value), userErrors: [] };
    },
    carrierServiceUpdate: (args: Args) => {
      const { id, ...input } = args.input as { id: string } & CarrierServiceInput;
      const outcome = store.shipping.tryUpdate(idArg(id, "DeliveryCarrierService") ?? -1, input);
      if (!outcome.ok) return { carrierService: null, userErrors: coded(outcome.userErrors) };
      return { carrierService: views.carrierService(outcome.value), userErrors: [] };
    },
    carrierServiceDelete: (args: Args) => {
      const outcome = store.shipping.tryDelete(idArg(args.id, "DeliveryCarrierService") ?? -1);
      if (!outcome.ok) return { deletedId: null, userErrors: coded(outcome.userErrors) };
      return { deletedId: gid("DeliveryCarrierService", outcome.value), userErrors: [] };
    },
    flowTriggerReceive: (args: Args) => {
      const outcome = store.tryReceiveFlowTrigger(args.handle, args.payload);
      return { userErrors: outcome.ok ? [] : outcome.userErrors };
    },
    orderMarkAsPaid: (args: Args) => {
      const input = args.input as { id: string };
      const outcome = store.tryMarkAsPaid(idArg(input.id, "Order") ?? -1);
      return payload(outcome, "order", (o) => views.order(o));
    },
    orderCancel: (args: Args) => {
      const reason = String(args.reason);
      if (!(ORDER_CANCEL_REASONS as readonly string[]).includes(reason)) {
        throw new GraphQLError(`Unknown cancel reason ${reason}`);
      }
      const refundMethod = args.refundMethod as
        { originalPaymentMethodsRefund?: boolean | null } | null | undefined;
      const outcome = store.tryCancelOrder(idArg(args.orderId, "Order") ?? -1, {
        reason: reason as (typeof ORDER_CANCEL_REASONS)[number],
        restock: args.restock === true,
        refund: args.refund === true || refundMethod?.originalPaymentMethodsRefund === true,
        notifyCustomer: args.notifyCustomer === true,
        staffNote: typeof args.staffNote === "string" ? args.staffNote : null,
      });
      if (!outcome.ok) {
        return {
          job: null,
          orderCancelUserErrors: outcome.userErrors.map((e) => ({
            field: e.field,
            message: e.message,
            code: e.code ?? null,
          })),
          userErrors: outcome.userErrors.map((e) => ({ field: e.field, message: e.message })),
        };
      }
      // Shopify cancels in a background job; the stand-in has already done it when it answers.
      return {
        job: { id: gid("Job", randomUUID()), done: true, query: root },
        orderCancelUserErrors: [],
        userErrors: [],
      };
    },
    fulfillmentOrderHold: (args: Args) => {
      const input = args.fulfillmentHold as {
        reason: string;
        reasonNotes?: string | null;
        handle?: string | null;
        notifyMerchant?: boolean | null;
        externalId?: string | null;
        fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null;
      };
      const outcome = store.tryHoldFulfillmentOrder(idArg(args.id, "FulfillmentOrder") ?? -1, {
        reason: input.reason as FulfillmentHoldReason,
        reasonNotes: input.reasonNotes ?? null,
        handle: input.handle ?? "",
        notifyMerchant: input.notifyMerchant ?? false,
        externalId: input.externalId ?? null,
        fulfillmentOrderLineItems:
          input.fulfillmentOrderLineItems?.map((line) => ({
            id: idArg(line.id, "FulfillmentOrderLineItem") ?? -1,
            quantity: line.quantity,
          })) ?? null,
      });
      if (!outcome.ok) {
        return {
          fulfillmentHold: null,
          fulfillmentOrder: null,
          remainingFulfillmentOrder: null,
          userErrors: coded(outcome.userErrors),
        };
      }
      const { hold, fulfillmentOrder, remainingFulfillmentOrder } = outcome.value;
      return {
        fulfillmentHold: views.fulfillmentHold(hold),
        fulfillmentOrder: views.fulfillmentOrder(fulfillmentOrder),
        remainingFulfillmentOrder: remainingFulfillmentOrder
          ? views.fulfillmentOrder(remainingFulfillmentOrder)
          : null,
        userErrors: [],
      };
    },
    fulfillmentOrderReleaseHold: (args: Args) => {
      // Ids of anything but a hold name no hold of this fulfillment order: ignored, as others are.
      const holdIds = Array.isArray(args.holdIds)
        ? args.holdIds.map((id) => idArg(id, "FulfillmentHold") ?? -1)
        : null;
      const outcome = store.tryReleaseFulfillmentHolds(
        idArg(args.id, "FulfillmentOrder") ?? -1,
        holdIds,
      );
      if (!outcome.ok) return { fulfillmentOrder: null, userErrors: coded(outcome.userErrors) };
      return { fulfillmentOrder: views.fulfillmentOrder(outcome.value), userErrors: [] };
    },
    orderUpdate: (args: Args) => {
      const input = args.input as OrderUpdateInput & {
        id: string;
        metafields?: (Omit<MetafieldInput, "id"> & { id?: string | null })[] | null;
      };
      const outcome = store.tryUpdateOrder(idArg(input.id, "Order") ?? -1, {
        ...input,
        metafields: input.metafields?.map((m) => ({
          ...m,
          id: m.id ? (idArg(m.id, "Metafield") ?? -1) : null,
        })),
      });
      return payload(outcome, "order", (o) => views.order(o));
    },
  };
}

/** User errors of a payload whose error type has a `code`. */
function coded(userErrors: UserErrorRecord[]) {
  return userErrors.map((e) => ({ field: e.field, message: e.message, code: e.code ?? null }));
}

function payload<T>(outcome: Outcome<T>, key: string, view: (value: T) => View): View {
  if (outcome.ok) return { [key]: view(outcome.value), userErrors: [] };
  return {
    [key]: null,
    userErrors: outcome.userErrors.map((e) => ({ field: e.field, message: e.message })),
  };
}
