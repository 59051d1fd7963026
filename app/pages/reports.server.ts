import {
  attentionCourierExceptions,
  courierExceptionsOfDelivery,
  type ExceptionView,
} from "../models/courier-exceptions.server";

/**
 * The courier's exceptions (issue 16, ADR 0039) as the pages show them: on a delivery's page
 * (app/routes/app.deliveries.$id.tsx), under Needs attention on the deliveries list, and on the
 * Courier reports page. Plain data: the card (components/deliveries/courier-exceptions-card.tsx)
 * picks the description in the page's language.
 */
export interface ExceptionItem {
  id: string;
  deliveryId: string | null;
  orderName: string | null;
  courierOrderId: string | null;
  type: string | null;
  description: string | null;
  descriptionArabic: string | null;
  happenedAt: string | null;
  firstSeenAt: string;
}

export function exceptionItem(view: ExceptionView): ExceptionItem {
  return {
    id: view.id,
    deliveryId: view.deliveryId,
    orderName: view.orderName,
    courierOrderId: view.courierOrderId,
    type: view.type,
    description: view.description,
    descriptionArabic: view.descriptionArabic,
    happenedAt: view.happenedAt,
    firstSeenAt: view.firstSeenAt.toISOString(),
  };
}

/** What the courier reported about one delivery, newest first. */
export async function deliveryExceptionItems(
  shop: string,
  deliveryId: string,
): Promise<ExceptionItem[]> {
  return (await courierExceptionsOfDelivery(shop, deliveryId)).map(exceptionItem);
}

/** The exceptions that ask for the merchant's attention now (the list's Needs attention tab). */
export async function attentionExceptionItems(shop: string, now = new Date()) {
  return (await attentionCourierExceptions(shop, now)).map(exceptionItem);
}
