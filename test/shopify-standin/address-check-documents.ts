// Admin GraphQL documents written as the app writes them for issue 26 (hold the parcel for the
// shopper's answer, read the holds, release them, write the answer back); the stand-in's tests run
// them, and real-schema.test.ts checks them against Shopify's own schema.

export const HOLD = `#graphql
  mutation HoldForAddress($id: ID!, $hold: FulfillmentOrderHoldInput!) {
    fulfillmentOrderHold(id: $id, fulfillmentHold: $hold) {
      fulfillmentHold { id handle reason reasonNotes }
      fulfillmentOrder { id status }
      remainingFulfillmentOrder { id status }
      userErrors { field message code }
    }
  }`;

export const RELEASE = `#graphql
  mutation ReleaseAddressHold($id: ID!, $holdIds: [ID!]) {
    fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) {
      fulfillmentOrder { id status fulfillmentHolds { id handle } }
      userErrors { field message code }
    }
  }`;

export const STATE = `#graphql
  query AddressHoldState($id: ID!) {
    shop { name }
    order(id: $id) {
      displayFulfillmentStatus
      fulfillmentOrders(first: 10) {
        nodes {
          id
          status
          supportedActions { action }
          fulfillmentHolds { id handle reason reasonNotes displayReason heldByRequestingApp }
        }
      }
    }
  }`;

export const FULFILL = `#graphql
  mutation FulfillOrder($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment { id status }
      userErrors { field message }
    }
  }`;

export const UPDATE = `#graphql
  mutation WriteShopperAnswer($input: OrderInput!) {
    orderUpdate(input: $input) {
      order {
        id
        shippingAddress {
          firstName lastName name address1 address2 city province provinceCode zip
          country countryCodeV2 phone latitude longitude
        }
      }
      userErrors { field message }
    }
  }`;

export const METAFIELDS = `#graphql
  query ShopperAnswer($id: ID!, $namespace: String!) {
    order(id: $id) {
      answer: metafield(namespace: $namespace, key: "address_answer") { id key namespace type value }
      metafields(first: 10, namespace: $namespace) { nodes { key type value } }
    }
  }`;

/** Every document above, by name. */
export const ADDRESS_CHECK_DOCUMENTS = { HOLD, RELEASE, STATE, FULFILL, UPDATE, METAFIELDS };
