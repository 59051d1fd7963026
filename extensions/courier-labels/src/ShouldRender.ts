import { createAppApi } from "../../shared/api";
import { hasLabel } from "../../shared/deliveries";

export default async () => {
  const orderId = shopify.data.selected[0]?.id;
  if (!orderId) return { display: false };
  try {
    return { display: hasLabel(await createAppApi(shopify).orderDeliveries(orderId)) };
  } catch {
    return { display: true };
  }
};
