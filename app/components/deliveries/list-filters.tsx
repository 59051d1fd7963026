import { BlockStack, ChoiceList, Select, type IndexFiltersProps } from "@shopify/polaris";
import type { TFunction } from "i18next";
import { DELIVERY_STATES, type DeliveryState } from "../../domain/states";
import type { Language } from "../../i18n/config";
import { formatDate } from "../../i18n/format";
import { listStates, type ListParams } from "../../models/read/delivery-list-params";
import { DayPicker, DayRangePicker } from "../day-range-picker";

/** The list's filters (state, payment, place, dates) and the chips of those applied. */
export function listFilters(props: {
  params: ListParams;
  governorates: { id: number; name: string }[];
  areas: { id: number; governanceId: number; name: string }[];
  go: (changes: Record<string, string | undefined>) => void;
  t: TFunction;
  language: Language;
}): {
  filters: IndexFiltersProps["filters"];
  appliedFilters: NonNullable<IndexFiltersProps["appliedFilters"]>;
} {
  const { params, governorates, areas, go, t, language } = props;
  const stateLabel = (state: DeliveryState) => t(`common:states.${state}`);
  // A Kuwait day (YYYY-MM-DD) in the page's language; anything else as typed.
  const day = (text: string) =>
    /^\d{4}-\d{2}-\d{2}$/.test(text) ? formatDate(`${text}T12:00:00+03:00`, language) : text;
  const states = listStates(params.state);
  const areasOfGovernorate = areas.filter(
    (a) => params.governorate === undefined || a.governanceId === params.governorate,
  );
  const filters: IndexFiltersProps["filters"] = [
    {
      key: "state",
      label: t("deliveries:filters.state"),
      filter: (
        <ChoiceList
          title={t("deliveries:filters.state")}
          titleHidden
          allowMultiple
          choices={DELIVERY_STATES.map((s) => ({ label: stateLabel(s), value: s }))}
          selected={states}
          onChange={(value) => go({ state: value.join(",") })}
        />
      ),
      shortcut: true,
    },
    {
      key: "cod",
      label: t("deliveries:filters.payment"),
      filter: (
        <ChoiceList
          title={t("deliveries:filters.payment")}
          titleHidden
          choices={[
            { label: t("deliveries:filters.cod"), value: "cod" },
            { label: t("deliveries:filters.prepaid"), value: "prepaid" },
          ]}
          selected={params.cod ? [params.cod] : []}
          onChange={(value) => go({ cod: value[0] })}
        />
      ),
      shortcut: true,
    },
    {
      key: "place",
      label: t("deliveries:filters.place"),
      filter: (
        <BlockStack gap="200">
          <Select
            label={t("deliveries:filters.governorate")}
            options={[
              { label: t("deliveries:filters.anyGovernorate"), value: "" },
              ...governorates.map((g) => ({ label: g.name, value: String(g.id) })),
            ]}
            value={params.governorate === undefined ? "" : String(params.governorate)}
            onChange={(value) => go({ governorate: value, area: undefined })}
          />
          <Select
            label={t("deliveries:filters.area")}
            options={[
              { label: t("deliveries:filters.anyArea"), value: "" },
              ...areasOfGovernorate.map((a) => ({ label: a.name, value: String(a.id) })),
            ]}
            value={params.area === undefined ? "" : String(params.area)}
            onChange={(value) => go({ area: value })}
          />
        </BlockStack>
      ),
    },
    {
      key: "dates",
      label: t("deliveries:filters.dates"),
      filter: (
        <DayRangePicker
          label={t("deliveries:filters.pickDates")}
          from={params.from}
          to={params.to}
          onChange={({ from, to }) => go({ from, to })}
        />
      ),
    },
    {
      key: "finished",
      label: t("deliveries:filters.finished"),
      filter: (
        <DayPicker
          label={t("deliveries:filters.pickFinished")}
          day={params.finished}
          onChange={(day) => go({ finished: day })}
        />
      ),
    },
  ];
  const governorateName = governorates.find((g) => g.id === params.governorate)?.name;
  const areaName = areas.find((a) => a.id === params.area)?.name;
  const appliedFilters: NonNullable<IndexFiltersProps["appliedFilters"]> = [
    ...(states.length > 0
      ? [
          {
            key: "state",
            label: t("deliveries:filters.appliedState", {
              states: states.map((s) => stateLabel(s)).join(language === "ar" ? "، " : ", "),
            }),
            onRemove: () => go({ state: undefined }),
          },
        ]
      : []),
    ...(params.cod
      ? [
          {
            key: "cod",
            label:
              params.cod === "cod" ? t("deliveries:filters.cod") : t("deliveries:filters.prepaid"),
            onRemove: () => go({ cod: undefined }),
          },
        ]
      : []),
    ...(governorateName || areaName
      ? [
          {
            key: "place",
            label: [governorateName, areaName].filter(Boolean).join(" · "),
            onRemove: () => go({ governorate: undefined, area: undefined }),
          },
        ]
      : []),
    ...(params.from || params.to
      ? [
          {
            key: "dates",
            label: t("deliveries:filters.appliedDates", {
              from: params.from ? day(params.from) : "…",
              to: params.to ? day(params.to) : "…",
            }),
            onRemove: () => go({ from: undefined, to: undefined }),
          },
        ]
      : []),
    ...(params.finished
      ? [
          {
            key: "finished",
            label: t("deliveries:filters.appliedFinished", { day: day(params.finished) }),
            onRemove: () => go({ finished: undefined }),
          },
        ]
      : []),
  ];
  return { filters, appliedFilters };
}
