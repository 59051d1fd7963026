import { createAppApi } from "../../shared/api";
import { sendActionUseful } from "../../shared/deliveries";

export default async () => {
  const orderId = shopify.data.selected[0]?.id;
  if (!orderId) return { display: false };
  try {
    return { display: sendActionUseful(await createAppApi(shopify).orderDeliveries(orderId)) };
  } catch {
    // The app did not answer: the action shows, and says so when opened.
    return { display: true };
  }
};
