/** The admin's app navigation (App Bridge NavMenu); each entry is a route under app/routes. */
export const NAVIGATION = [
  { to: "/app", labelKey: "nav.home" },
  { to: "/app/deliveries", labelKey: "nav.deliveries" },
  { to: "/app/send", labelKey: "nav.send" },
  { to: "/app/cash", labelKey: "nav.cash" },
  { to: "/app/reports", labelKey: "nav.reports" },
  { to: "/app/address-review", labelKey: "nav.addressReview" },
  { to: "/app/customer-answers", labelKey: "nav.customerAnswers" },
  { to: "/app/pickup-locations", labelKey: "nav.pickupLocations" },
  { to: "/app/settings", labelKey: "nav.settings" },
  { to: "/app/privacy", labelKey: "nav.privacy" },
  { to: "/app/language", labelKey: "nav.language" },
] as const;
