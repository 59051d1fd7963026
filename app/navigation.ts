/** The admin's app navigation (App Bridge NavMenu); each entry is a route under app/routes. */
export const NAVIGATION = [
  { to: "/app", label: "Home" },
  { to: "/app/deliveries", label: "Deliveries" },
  { to: "/app/send", label: "Send to courier" },
  { to: "/app/cash", label: "Cash on delivery" },
  { to: "/app/reports", label: "Courier reports" },
  { to: "/app/address-review", label: "Address review" },
  { to: "/app/pickup-locations", label: "Pickup locations" },
  { to: "/app/settings", label: "Settings" },
  { to: "/app/privacy", label: "Privacy requests" },
] as const;
