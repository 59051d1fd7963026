import { BlockStack, Box, InlineGrid, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AREAS } from "../../addresses/gazetteer";
import {
  deliveryPromise,
  rateWords,
  withMargin,
  type RateChoices,
} from "../../domain/checkout-rates";
import type { Language } from "../../i18n/config";
import { formatKwd, formatShopperDay } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";

/**
 * What a shopper reads at checkout if they ordered now, in both languages, from the same rules the
 * callback answers with: an example courier price to an example area, the merchant's margin, and
 * the delivery promise from the cut-off, preparation days and holidays.
 */

/** The example: what the courier might charge to a central area. */
export const EXAMPLE_COURIER_FILS = 1250;
const EXAMPLE_AREAS = ["Salmiya", "Hawalli", "Jabriya"];

const kwd = (fils: number, language: Language) => formatKwd(fils / 1000, language);

export function RatePreview(props: { choices: RateChoices; now: string; courierName: string }) {
  const { choices, now, courierName } = props;
  const { t, i18n } = useTranslation("settings");
  const language = useLanguage();
  const served = (name: string) => !choices.hiddenAreas.includes(name);
  const example = EXAMPLE_AREAS.find(served);
  const area = AREAS.find((a) => a.nameEn === example) ?? AREAS.find((a) => served(a.nameEn));
  const promise = deliveryPromise(new Date(now), choices);
  const price = withMargin(EXAMPLE_COURIER_FILS, choices);
  const areaIn = (lang: Language) => (area ? (lang === "ar" ? area.nameAr : area.nameEn) : null);

  const shopperBox = (lang: Language) => {
    const words = rateWords({
      language: lang,
      promise,
      outcome: "priced",
      courierName,
      areaName: areaIn(lang),
    });
    const tl = i18n.getFixedT(lang, "settings");
    return (
      <div key={lang} lang={lang} dir={lang === "ar" ? "rtl" : "ltr"} data-shopper-preview={lang}>
        <Box background="bg-surface-secondary" padding="300" borderRadius="200">
          <BlockStack gap="100">
            <Text as="p" variant="bodySm" tone="subdued">
              {tl("checkoutRates.preview.atCheckout")}
            </Text>
            <Text as="p" fontWeight="semibold">
              {words.serviceName} · {kwd(price, lang)}
            </Text>
            <Text as="p">{words.description}</Text>
            <Text as="p" tone="subdued">
              {tl("checkoutRates.preview.arrives", {
                from: formatShopperDay(promise.minDay, lang),
                to: formatShopperDay(promise.maxDay, lang),
              })}
            </Text>
          </BlockStack>
        </Box>
      </div>
    );
  };

  return (
    <BlockStack gap="300">
      <BlockStack gap="100">
        <Text as="h4" variant="headingXs">
          {t("checkoutRates.preview.title")}
        </Text>
        <Text as="p" tone="subdued">
          {t("checkoutRates.preview.example", {
            courier: kwd(EXAMPLE_COURIER_FILS, language),
            area: area ? (language === "ar" ? area.nameAr : area.nameEn) : "",
            price: kwd(price, language),
          })}
        </Text>
      </BlockStack>
      {/* The page's language first. */}
      <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
        {(language === "ar" ? (["ar", "en"] as const) : (["en", "ar"] as const)).map(shopperBox)}
      </InlineGrid>
      <Text as="p" tone="subdued">
        {t("checkoutRates.preview.fallback", { price: kwd(choices.fallbackFils, language) })}
        {choices.freeAboveFils !== null &&
          ` ${t("checkoutRates.preview.free", { amount: kwd(choices.freeAboveFils, language) })}`}
      </Text>
    </BlockStack>
  );
}
