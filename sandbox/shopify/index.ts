export {
  ALL_STANDIN_SCOPES,
  startShopifyStandIn,
  type ShopifyStandIn,
  type ShopifyStandInOptions,
} from "./server";
export { ShopifyStandInStore, StandInError, type ShopifyStandInStoreOptions } from "./store";
export {
  FULFILLMENT_EVENT_STATUSES,
  FULFILLMENT_HOLD_REASONS,
  ORDER_CANCEL_REASONS,
  STANDIN_API_VERSION,
  WEBHOOK_TOPICS,
  weightInGrams,
  type FulfillOptions,
  type FulfillmentEventInput,
  type FulfillmentEventStatus,
  type FulfillmentHoldInput,
  type FulfillmentHoldReason,
  type FulfillmentOrderStatus,
  type HoldResult,
  type GraphqlOperationRecord,
  type LineItemInput,
  type LocationInput,
  type MailingAddressInput,
  type MetafieldInput,
  type OrderInput,
  type OrderUpdateInput,
  type Outcome,
  type StandInAddress,
  type StandInFulfillment,
  type StandInFulfillmentEvent,
  type StandInFulfillmentHold,
  type StandInFulfillmentOrder,
  type StandInLineItem,
  type StandInLocation,
  type StandInMetafield,
  type StandInOrder,
  type StandInTrackingInfo,
  type StoreEvent,
  type TrackingInput,
  type UserErrorRecord,
  type WebhookTopic,
} from "./records";
export {
  AdminGraphqlApi,
  adminSchema,
  type AdminGraphqlReply,
  type AdminGraphqlRequest,
  type CostLimits,
  type ThrottleStatus,
} from "./graphql";
export {
  HMAC_HEADER,
  signWebhookBody,
  WEBHOOK_ID_HEADER,
  WebhookSender,
  type OutgoingWebhook,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookTransport,
} from "./webhooks";
export { shopTime, webhookPayload } from "./payloads";
export { signSessionToken, StandInAuth, verifySessionToken, type IssuedAccessToken } from "./auth";
export { routeShopifyToStandIn, type RouteShopifyOptions } from "./redirect";
export { seedDemoStore } from "./demo-data";
export { subscriptionsFromAppToml, type AppSubscriptions } from "./subscriptions";
export { gid, parseGid } from "./ids";
export {
  NOT_ELIGIBLE_MESSAGE,
  SHOP_PLANS,
  StandInShipping,
  type ShopPlan,
  type StandInCarrierService,
} from "./carrier-services";
export {
  CHECKOUT_RATES_TIMEOUT_MS,
  rateRequestBody,
  simulateCheckoutRates,
  type CheckoutRate,
  type CheckoutRatesInput,
  type CheckoutRatesResult,
} from "./checkout-rates";
