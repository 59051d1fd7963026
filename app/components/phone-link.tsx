import { Link } from "@shopify/polaris";
import { phoneForDisplay } from "../domain/contact-phone";

/** A phone the merchant can tap to call, grouped, left to right on either page. */
export function PhoneLink(props: { phone: string }) {
  const { display, tel } = phoneForDisplay(props.phone);
  const text = (
    <bdi dir="ltr" translate="no">
      {display}
    </bdi>
  );
  return tel ? (
    <Link url={tel} removeUnderline={false}>
      {text}
    </Link>
  ) : (
    text
  );
}
