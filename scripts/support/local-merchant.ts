/**
 * A merchant set up on a local app against the stand-ins, through the app's own services (the
 * code the Settings and Pickup locations pages call): the courier key tested and stored, delivery
 * options, every stand-in location confirmed as a pickup location, and the courier's status
 * pushes pointed at the app. Used by `npm run demo` and `npm run bench:shopper`; the caller has
 * set the app's environment (DATABASE_URL, ENCRYPTION_KEYS, COURIER_SANDBOX_URL) before calling.
 */
import type { CourierSandbox } from "../../sandbox/courier";
import type { ShopifyStandInStore } from "../../sandbox/shopify";

export async function configureLocalMerchant(options: {
  shop: string;
  store: ShopifyStandInStore;
  courier: CourierSandbox;
  courierKey: string;
  appUrl: string;
  autoSend?: boolean;
}) {
  const { gid } = await import("../../sandbox/shopify");
  const { connectCourier } = await import("../../app/services/courier-connection.server");
  const { saveDeliveryOptions } = await import("../../app/models/shop.server");
  const { loadCourierDirectory } = await import("../../app/services/courier-directory.server");
  const { proposeForLocation } = await import("../../app/services/pickup-mapping");
  const { confirmPickupLocation, getPickupLocation } =
    await import("../../app/models/pickup-locations.server");
  const { normalizeContactPhone } = await import("../../app/courier");
  const { createPushCredentials } = await import("../../app/models/push-credentials.server");
  const { shop } = options;

  const connected = await connectCourier({
    shop,
    environment: "sandbox",
    apiKey: options.courierKey,
  });
  if (!connected.ok) throw new Error(connected.error);
  await saveDeliveryOptions(shop, {
    autoSend: options.autoSend ?? true,
    paymentCodeCod: "COD",
    paymentCodePrepaid: "PREPAID",
    preparationMinutes: 120,
    notifyCustomer: true,
  });
  const directory = (await loadCourierDirectory(shop, "sandbox"))!;
  for (const location of options.store.locations()) {
    const locationId = gid("Location", location.id);
    if (await getPickupLocation(shop, locationId)) continue;
    const proposal = proposeForLocation(
      {
        id: locationId,
        name: location.name,
        isActive: true,
        fulfillsOnlineOrders: true,
        address: location.address,
      },
      directory,
    );
    if (proposal.values.governanceId === null || proposal.values.areaId === null) continue;
    const phone = normalizeContactPhone(proposal.values.contactPhone || "22200000");
    await confirmPickupLocation(shop, {
      locationId,
      name: location.name,
      governanceId: proposal.values.governanceId,
      areaId: proposal.values.areaId,
      block: proposal.values.block || "1",
      street: proposal.values.street || "1",
      building: proposal.values.building,
      avenue: proposal.values.avenue,
      floor: proposal.values.floor,
      contactName: location.name,
      contactPhone: phone.ok ? phone.contactPhone : "22200000",
      latitude: null,
      longitude: null,
    });
  }
  // Status pushes: the courier (sandbox) signs each status change and posts it to the shop's URL.
  const push = await createPushCredentials(shop);
  options.courier.configureWebhook({
    url: `${options.appUrl}/courier/webhooks/${push.token}`,
    secret: push.secret,
  });
}
