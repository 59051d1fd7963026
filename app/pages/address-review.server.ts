import { missingForCourier } from "../addresses";
import { rememberChance } from "../actions/fix.server";
import { doubtSentence } from "../domain/address-doubt";
import { Unreadable } from "../domain/json-column";
import { missingPartsReason } from "../domain/request";
import { getCourierAccount } from "../models/courier-account.server";
import { listDeliveriesInState } from "../models/read/delivery-list.server";
import { loadCourierDirectory } from "../services/courier-directory.server";

/** Address review: the deliveries waiting for a place, each with what the customer typed. */
export async function addressReviewPage(shop: string) {
  const account = await getCourierAccount(shop);
  const directory = await loadCourierDirectory(shop, account.environment);
  const deliveries = await listDeliveriesInState(shop, "needs_address", 50);
  return {
    governances: directory?.governances ?? [],
    areas: directory?.areas ?? [],
    queue: deliveries.map((d) => {
      // A record that no longer reads shows nothing of it but says so; the order has the address.
      const unreadable = d.addressMatch instanceof Unreadable;
      const match = d.addressMatch instanceof Unreadable ? {} : (d.addressMatch ?? {});
      // What the courier needs and the address lacks, said once: as the reason, or beside it.
      const missing = missingForCourier(match.parts ?? {});
      return {
        id: d.id,
        orderName: d.orderName,
        // Why the matcher was not sure, as a sentence in the page's language (issue 30); rows
        // written before it was kept fall back to the recorded reason.
        doubt: match.doubt ? doubtSentence(match.doubt) : null,
        reason: missing && d.stateReason === missingPartsReason(missing) ? null : d.stateReason,
        missing,
        typed: [match.input?.address1, match.input?.address2, match.input?.city]
          .filter(Boolean)
          .join(", "),
        // Shopify's zone code ("KW-JA"): the page names the governorate in its language.
        provinceCode: match.input?.provinceCode ?? null,
        phone: match.contactPhone ?? null,
        suggestion: match.area ?? null,
        unreadable,
        parts: match.parts ?? {},
        courier: match.courier ?? null,
        // Whether an answer can be remembered for what the customer typed, said before sending.
        remember: rememberChance(d),
      };
    }),
  };
}
