import {
  BlockStack,
  Box,
  Button,
  Checkbox,
  InlineGrid,
  InlineStack,
  InlineError,
  Tag,
  Text,
  TextField,
} from "@shopify/polaris";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { AREAS, GOVERNORATES, type GazetteerArea } from "../../addresses/gazetteer";
import { areaSearchMatches, searchText } from "../../domain/area-search";
import { formatNumber } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";

/**
 * The areas the merchant does not deliver to (checkout shows no rate there): the gazetteer's
 * areas by governorate in the page's language, a search over every name an area goes by, and the
 * chosen ones as tags to remove. Values are the gazetteer's English names, as the rules keep them.
 */

const SEARCH = new Map(
  AREAS.map((area) => [area.nameEn, searchText([area.nameEn, area.nameAr, ...area.aliases])]),
);

export function HiddenAreasPicker(props: {
  chosen: string[];
  onChange: (names: string[]) => void;
  error: string | undefined;
}) {
  const { chosen, onChange } = props;
  const { t } = useTranslation("settings");
  const language = useLanguage();
  const [search, setSearch] = useState("");
  const [open, setOpen] = useState<string | null>(null);
  const name = (area: GazetteerArea) => (language === "ar" ? area.nameAr : area.nameEn);
  const byName = useMemo(() => new Map(AREAS.map((area) => [area.nameEn, area])), []);
  const hidden = new Set(chosen);
  const toggle = (area: GazetteerArea, on: boolean) =>
    onChange(
      on ? [...new Set([...chosen, area.nameEn])].sort() : chosen.filter((n) => n !== area.nameEn),
    );
  const typed = search.trim();
  const found =
    typed === "" ? [] : AREAS.filter((a) => areaSearchMatches(SEARCH.get(a.nameEn) ?? "", typed));

  const boxes = (areas: readonly GazetteerArea[]) => (
    <InlineGrid columns={{ xs: 1, sm: 2 }} gap="100">
      {areas.map((area) => (
        <Checkbox
          key={area.nameEn}
          label={name(area)}
          checked={hidden.has(area.nameEn)}
          onChange={(on) => toggle(area, on)}
        />
      ))}
    </InlineGrid>
  );

  return (
    <BlockStack gap="300">
      <BlockStack gap="100">
        <Text as="h4" variant="headingXs">
          {t("checkoutRates.areas.title")}
        </Text>
        <Text as="p" tone="subdued">
          {t("checkoutRates.areas.help")}
        </Text>
      </BlockStack>
      <Text as="p" fontWeight="semibold">
        {chosen.length === 0
          ? t("checkoutRates.areas.none")
          : t("checkoutRates.areas.count", {
              count: chosen.length,
              n: formatNumber(chosen.length, language),
            })}
      </Text>
      {chosen.length > 0 && (
        <InlineStack gap="200" wrap>
          {chosen.map((nameEn) => {
            const area = byName.get(nameEn);
            const label = area ? name(area) : nameEn;
            return (
              <Tag
                key={nameEn}
                onRemove={() => onChange(chosen.filter((n) => n !== nameEn))}
                accessibilityLabel={t("checkoutRates.areas.show", { area: label })}
              >
                {label}
              </Tag>
            );
          })}
        </InlineStack>
      )}
      {props.error && <InlineError message={props.error} fieldID="hiddenAreas" />}
      <TextField
        label={t("checkoutRates.areas.search")}
        value={search}
        onChange={setSearch}
        autoComplete="off"
        clearButton
        onClearButtonClick={() => setSearch("")}
        placeholder={t("checkoutRates.areas.searchPlaceholder")}
      />
      {typed !== "" ? (
        found.length === 0 ? (
          <Text as="p" tone="subdued">
            {t("checkoutRates.areas.noMatch")}
          </Text>
        ) : (
          boxes(found.slice(0, 30))
        )
      ) : (
        <BlockStack gap="100">
          {GOVERNORATES.map((governorate) => {
            const areas = AREAS.filter((a) => a.governorateCode === governorate.code);
            const hiddenHere = areas.filter((a) => hidden.has(a.nameEn)).length;
            const isOpen = open === governorate.code;
            return (
              <Box key={governorate.code}>
                <Button
                  variant="tertiary"
                  disclosure={isOpen ? "up" : "down"}
                  onClick={() => setOpen(isOpen ? null : governorate.code)}
                  ariaExpanded={isOpen}
                >
                  {t(
                    hiddenHere > 0
                      ? "checkoutRates.areas.governorateHidden"
                      : "checkoutRates.areas.governorate",
                    {
                      name: language === "ar" ? governorate.nameAr : governorate.nameEn,
                      count: areas.length,
                      n: formatNumber(areas.length, language),
                      hidden: formatNumber(hiddenHere, language),
                    },
                  )}
                </Button>
                {isOpen && (
                  <Box paddingInlineStart="300" paddingBlock="200">
                    {boxes(areas)}
                  </Box>
                )}
              </Box>
            );
          })}
        </BlockStack>
      )}
    </BlockStack>
  );
}
