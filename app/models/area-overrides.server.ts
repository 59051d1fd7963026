import prisma from "../db.server";
import type { AreaOverride } from "../addresses";

/** The merchant's remembered answers, in the shape the matcher applies first. */
export async function listAreaOverrides(shop: string): Promise<AreaOverride[]> {
  const rows = await prisma.areaOverride.findMany({ where: { shop } });
  return rows.map((row) => ({ key: row.spelling, governorate: row.governorate, area: row.area }));
}

/** "Remember this spelling": the same text will be placed in this area from now on. */
export async function rememberAreaSpelling(
  shop: string,
  spelling: string,
  place: { governorate: string; area: string },
): Promise<void> {
  if (!spelling) return;
  await prisma.areaOverride.upsert({
    where: { shop_spelling: { shop, spelling } },
    create: { shop, spelling, ...place },
    update: place,
  });
}
