import { StaleDeliveryError } from "../models/delivery-state";
import { notice, type Notice } from "../domain/notices";

/**
 * A merchant's action on a delivery (send again, fix, mark created, cancel) that met the delivery
 * already moved by another click, another tab or the worker: the move it tried was refused by the
 * state writer (StaleDeliveryError), nothing was done, and the merchant is told so in words
 * instead of an error page (issue 24: ten "Send again" clicks gave one courier order and four
 * 500s). One wrapper for every such action, so a new one cannot forget it.
 */
export function refusedWhenMoved<A extends unknown[], R>(
  action: (...args: A) => Promise<R>,
): (...args: A) => Promise<R | { ok: false; error: Notice }> {
  return async (...args) => {
    try {
      return await action(...args);
    } catch (error) {
      if (error instanceof StaleDeliveryError)
        return { ok: false as const, error: notice("delivery_changed") };
      throw error;
    }
  };
}
