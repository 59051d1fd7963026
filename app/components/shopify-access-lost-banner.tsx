import { Banner } from "@shopify/polaris";

/** Shopify would not renew the app's access (ADR 0015); shown on Home and Settings. */
export function ShopifyAccessLostBanner({ reason }: { reason: string }) {
  return (
    <Banner tone="critical" title="The app has lost its access to your store">
      <p>
        Deliveries are waiting: the app cannot read orders or add tracking numbers until it is
        authorised again. Open the app from your Shopify admin (Apps, then this app); opening it
        authorises it again, and waiting deliveries continue by themselves within a few minutes.
      </p>
      {reason && <p>{reason}</p>}
    </Banner>
  );
}
