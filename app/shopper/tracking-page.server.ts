import { trackingSteps } from "../domain/tracking-steps";
import {
  findDeliveryForTrackingPage,
  readTrackingPageContact,
} from "../models/tracking-page.server";

/**
 * The shopper's public page behind the link on the Shopify fulfillment (/tracking/<token>): what
 * it shows of a delivery, never the customer's name, address or phone. Null for a link that names
 * no delivery sent to the courier.
 */
export async function trackingPage(token: string) {
  const delivery = await findDeliveryForTrackingPage(token);
  if (!delivery?.courierOrderNumber) return null;
  const contact = await readTrackingPageContact(delivery.shop);
  return {
    customerLanguage: delivery.customerLanguage,
    view: {
      number: delivery.courierOrderNumber,
      shopName: contact.shopName,
      phone: contact.phone,
      email: contact.email,
      ...trackingSteps(delivery.events, delivery.state),
    },
  };
}
