import { describe, expect, it } from "vitest";
import { normalizeArabic } from "../../app/addresses";
import prisma from "../../app/db.server";
import { action, loader } from "../../app/routes/app.pickup-locations";
import { loadCourierDirectory } from "../../app/services/courier-directory.server";
import { connectCourier } from "../../app/services/courier-connection.server";
import { adminApi } from "../support/admin-api";
import { setUpCourierSandbox, SANDBOX_KEY } from "../support/courier-sandbox";
import { adminFetchRequest, callRoute, installShop, shopDomain } from "../support/shopify";

const shop = shopDomain("pickups");
setUpCourierSandbox();

const salmiyaStore = {
  id: "gid://shopify/Location/101",
  name: "Salmiya store",
  isActive: true,
  fulfillsOnlineOrders: true,
  address: {
    address1: "Salem Al Mubarak St, Block 10, Building 12",
    address2: null,
    city: "Salmiya",
    zip: null,
    provinceCode: "KW-HA",
    countryCode: "KW",
    phone: "+965 2222 3333",
  },
};
const closedStore = {
  ...salmiyaStore,
  id: "gid://shopify/Location/102",
  name: "Old store",
  isActive: false,
};

async function connected() {
  await installShop(shop);
  const outcome = await connectCourier({ shop, environment: "sandbox", apiKey: SANDBOX_KEY });
  expect(outcome.ok).toBe(true);
  adminApi.on("PickupLocations", () => ({
    data: { locations: { nodes: [salmiyaStore, closedStore] } },
  }));
  const directory = await loadCourierDirectory(shop, "sandbox");
  // The sandbox spells some names differently from the gazetteer, as a real courier would.
  const named = (name: string) => (a: { name: string }) =>
    normalizeArabic(a.name) === normalizeArabic(name);
  const hawalli = directory!.governances.find(named("حولي"))!;
  const salmiya = directory!.areas.find(named("السالمية"))!;
  const jahra = directory!.areas.find(named("الجهراء"))!;
  return { hawalli, salmiya, jahra };
}

async function confirm(form: Record<string, string>) {
  const response = await callRoute(
    action,
    await adminFetchRequest(shop, "/app/pickup-locations", { form }),
  );
  return { status: response.status, body: await response.json() };
}

const validForm = (ids: { governanceId: number; areaId: number }) => ({
  locationId: salmiyaStore.id,
  name: salmiyaStore.name,
  governanceId: String(ids.governanceId),
  areaId: String(ids.areaId),
  block: "10",
  street: "Salem Al Mubarak",
  building: "12",
  avenue: "",
  floor: "",
  contactName: "Salmiya store",
  contactPhone: "+965 2222 3333",
});

describe("pickup location mapping", () => {
  it("proposes the courier's governance and area for each active location from its address", async () => {
    const { hawalli, salmiya } = await connected();
    const data = await (
      await callRoute(loader, await adminFetchRequest(shop, "/app/pickup-locations"))
    ).json();
    expect(data.connected).toBe(true);
    expect(data.locations).toHaveLength(1);
    const [location] = data.locations;
    expect(location).toMatchObject({
      id: salmiyaStore.id,
      confirmedAt: null,
      proposalConfident: true,
    });
    expect(location.values).toMatchObject({
      governanceId: hawalli.id,
      areaId: salmiya.id,
      block: "10",
      contactPhone: "+965 2222 3333",
    });
    expect(data.areas.length).toBeGreaterThan(100);
  });

  it("stores the confirmed mapping with the phone in the courier's format", async () => {
    const { hawalli, salmiya } = await connected();
    const { status, body } = await confirm(
      validForm({ governanceId: hawalli.id, areaId: salmiya.id }),
    );
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    const row = await prisma.pickupLocation.findUniqueOrThrow({
      where: { shop_locationId: { shop, locationId: salmiyaStore.id } },
    });
    expect(row).toMatchObject({
      governanceId: hawalli.id,
      areaId: salmiya.id,
      contactPhone: "22223333",
      block: "10",
    });
    const data = await (
      await callRoute(loader, await adminFetchRequest(shop, "/app/pickup-locations"))
    ).json();
    expect(data.locations[0].confirmedAt).not.toBeNull();
  });

  it("refuses an area outside the chosen governance and stores nothing", async () => {
    const { hawalli, jahra } = await connected();
    const { status, body } = await confirm(
      validForm({ governanceId: hawalli.id, areaId: jahra.id }),
    );
    expect(status).toBe(400);
    expect(body.errors.areaId).toBe("That area is not in the chosen governance.");
    expect(await prisma.pickupLocation.count({ where: { shop } })).toBe(0);
  });

  it("says which fields to fix when the block is missing and the phone is not Kuwaiti", async () => {
    const { hawalli, salmiya } = await connected();
    const { status, body } = await confirm({
      ...validForm({ governanceId: hawalli.id, areaId: salmiya.id }),
      block: "",
      contactPhone: "12",
    });
    expect(status).toBe(400);
    expect(body.errors.block).toBe("Block is required.");
    expect(body.errors.contactPhone).toBeTruthy();
    expect(await prisma.pickupLocation.count({ where: { shop } })).toBe(0);
  });

  it("asks to connect the courier first when there is no master data", async () => {
    await installShop(shop);
    const data = await (
      await callRoute(loader, await adminFetchRequest(shop, "/app/pickup-locations"))
    ).json();
    expect(data).toMatchObject({ connected: false, locations: [] });
    const { status, body } = await confirm(validForm({ governanceId: 1, areaId: 2 }));
    expect(status).toBe(400);
    expect(body.errors.form).toMatch(/Connect the courier/);
  });
});
