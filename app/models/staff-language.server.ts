import prisma from "../db.server";
import { DEFAULT_LANGUAGE, languageOf, type Language } from "../i18n/config";

/**
 * The language of the admin pages for one staff member (ADR 0040): the one they chose with the
 * app's switch; else Shopify's `locale` parameter (on the pages the admin loads in its frame),
 * remembered so later navigations inside the app, which do not carry it, keep it; else English.
 */
export async function staffLanguage(input: {
  shop: string;
  userId: string | null | undefined;
  shopifyLocale: string | null;
}): Promise<Language> {
  const fromShopify =
    input.shopifyLocale === null ? null : (languageOf(input.shopifyLocale) ?? "en");
  if (!input.userId) return fromShopify ?? DEFAULT_LANGUAGE;
  const key = { shop_userId: { shop: input.shop, userId: input.userId } };
  const row = await prisma.staffLanguage.findUnique({ where: key });
  if (row?.chosen) return languageOf(row.language) ?? DEFAULT_LANGUAGE;
  if (fromShopify) {
    if (row?.language !== fromShopify) {
      await prisma.staffLanguage.upsert({
        where: key,
        create: { shop: input.shop, userId: input.userId, language: fromShopify, chosen: false },
        update: { language: fromShopify },
      });
    }
    return fromShopify;
  }
  return languageOf(row?.language) ?? DEFAULT_LANGUAGE;
}

/** The staff member picked a language with the switch: it wins over Shopify's from now on. */
export async function chooseStaffLanguage(shop: string, userId: string, language: Language) {
  await prisma.staffLanguage.upsert({
    where: { shop_userId: { shop, userId } },
    create: { shop, userId, language, chosen: true },
    update: { language, chosen: true },
  });
}
