import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { saveMasterData } from "../../app/models/courier-account.server";
import { loadCourierDirectory } from "../../app/services/courier-directory.server";
import { shopDomain } from "../support/shopify";

/**
 * The courier's areas, built once per fetch of the master data: a page that asks for them again
 * (the shopper's page on every load) checks only that the stored copy is still the one built.
 */
const masterData = (areaName: string) => ({
  governances: [{ governanceId: 1, governanceName: "محافظة حولي" }],
  areas: [{ areaId: 10, areaName, governanceId: 1, raw: { areaId: 10, areaName } }],
});

describe("the courier directory", () => {
  it("serves the built directory while the stored master data is the one it was built from", async () => {
    const shop = shopDomain("directory-cached");
    await saveMasterData(shop, "sandbox", masterData("السالمية"), new Date("2026-11-01T00:00:00Z"));
    expect((await loadCourierDirectory(shop, "sandbox"))?.areas[0]?.name).toBe("السالمية");
    // The areas' column no longer decodes, the fetch time unchanged: the built copy is still used,
    // which it could not be had the column been read again.
    await prisma.courierMasterData.updateMany({ where: { shop }, data: { areas: "not json" } });
    expect((await loadCourierDirectory(shop, "sandbox"))?.areas[0]?.name).toBe("السالمية");
  });

  it("builds again when the master data is fetched again, and forgets it when it is gone", async () => {
    const shop = shopDomain("directory-refetched");
    await saveMasterData(shop, "sandbox", masterData("السالمية"), new Date("2026-11-01T00:00:00Z"));
    expect((await loadCourierDirectory(shop, "sandbox"))?.areas[0]?.name).toBe("السالمية");
    await saveMasterData(shop, "sandbox", masterData("الجابرية"), new Date("2026-11-02T00:00:00Z"));
    expect((await loadCourierDirectory(shop, "sandbox"))?.areas[0]?.name).toBe("الجابرية");
    await prisma.courierMasterData.deleteMany({ where: { shop } });
    expect(await loadCourierDirectory(shop, "sandbox")).toBeNull();
    expect(await loadCourierDirectory(shop, "production")).toBeNull();
  });

  it("serves one built directory to requests that ask at the same time", async () => {
    const shop = shopDomain("directory-concurrent");
    await saveMasterData(shop, "sandbox", masterData("السالمية"), new Date("2026-11-01T00:00:00Z"));
    const built = await loadCourierDirectory(shop, "sandbox");
    // A pass of the worker prepares many deliveries at once; none may rebuild it meanwhile.
    const together = await Promise.all(
      Array.from({ length: 10 }, () => loadCourierDirectory(shop, "sandbox")),
    );
    for (const directory of together) expect(directory).toBe(built);
  });
});
