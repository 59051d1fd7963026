import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  useFetcher,
  useLoaderData,
  useNavigate,
  useNavigation,
  useRevalidator,
  useSearchParams,
} from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Card,
  ChoiceList,
  EmptySearchResult,
  IndexFilters,
  IndexTable,
  InlineStack,
  Link,
  Modal,
  Page,
  Select,
  Text,
  TextField,
  useBreakpoints,
  useIndexResourceState,
  useSetIndexFiltersMode,
  type IndexFiltersProps,
} from "@shopify/polaris";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { stateTone } from "../components/delivery-state";
import { cancelDelivery } from "../deliveries/cancel.server";
import { retryDelivery } from "../deliveries/retry.server";
import { DELIVERY_STATES, type DeliveryState } from "../deliveries/domain/states";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatKwd } from "../i18n/format";
import { translateMessage } from "../i18n/messages";
import { useLanguage } from "../i18n/language";
import { encodeCursor, LIST_TABS } from "../models/delivery-list";
import { isStuck, listDeliveryPage } from "../models/delivery-list.server";
import { listQueryOf, listStates, readListParams } from "../models/delivery-list-params";
import { getPlaceNames } from "../models/place-names.server";
import { getCourierAccount } from "../models/courier-account.server";
import { authenticate } from "../shopify.server";

/** How often an open, visible list reads its rows again (states change without a reload). */
const REFRESH_MS = 15_000;
const MAX_BULK = 50;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const params = readListParams(new URL(request.url).searchParams);
  const now = new Date();
  const account = await getCourierAccount(session.shop);
  const [page, places] = await Promise.all([
    listDeliveryPage(listQueryOf(session.shop, params, now)),
    getPlaceNames(session.shop, account.environment),
  ]);
  // Both languages: the page shows its own (the layout decides it).
  const areaName = new Map(places.areas.map((a) => [a.id, { en: a.en, ar: a.ar }]));
  return {
    params,
    rows: page.rows.map((d) => ({
      id: d.id,
      orderName: d.orderName,
      customer: d.customerName,
      area: d.areaId === null ? null : (areaName.get(d.areaId) ?? null),
      cod: d.cashToCollect,
      state: d.state,
      reason: d.stateReason,
      stuck: isStuck(d, now),
      courierNumber: d.courierOrderNumber,
      createdAt: d.createdAt.toISOString(),
    })),
    next: page.next ? encodeCursor(page.next) : null,
    previous: page.previous ? encodeCursor(page.previous) : null,
    searchTruncated: page.searchTruncated,
    governorates: places.governorates,
    areas: places.areas,
  };
};

type BulkOutcome = { id: string; ok: boolean; message: string };

/** Bulk "Send again" and "Cancel": the same functions as the delivery's page, one by one. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = form.get("intent");
  const ids = form.getAll("id").map(String).slice(0, MAX_BULK);
  if ((intent !== "retry" && intent !== "cancel") || ids.length === 0) {
    return Response.json(
      { error: "Choose deliveries, then Send again or Cancel." },
      { status: 400 },
    );
  }
  const outcomes: BulkOutcome[] = [];
  for (const id of ids) {
    const outcome =
      intent === "cancel"
        ? await cancelDelivery(session.shop, id, "cancelled by the merchant in the app")
        : await retryDelivery(session.shop, admin, id);
    outcomes.push({
      id,
      ok: outcome.ok,
      message: outcome.ok ? ("message" in outcome && outcome.message) || "" : outcome.error,
    });
  }
  return Response.json({ intent, outcomes });
};

/**
 * The order as a link to its delivery's page: keyboards and screen readers reach it, and
 * Polaris makes the whole row open it (dataPrimaryLink) unless rows are being selected.
 */
function OrderLink(props: { id: string; name: string | null; fallback: string }) {
  return (
    <Link url={`/app/deliveries/${props.id}`} dataPrimaryLink monochrome removeUnderline>
      <Text as="span" fontWeight="semibold">
        {props.name ? <bdi translate="no">{props.name}</bdi> : props.fallback}
      </Text>
    </Link>
  );
}

/**
 * "customer · area" on a phone's row, each isolated: a name in Latin letters on an Arabic page
 * (or the reverse) stays first in reading order instead of trading places with the area.
 */
function CustomerAndArea(props: { customer: string | null; area: string | null }) {
  if (!props.customer && !props.area) return <>—</>;
  return (
    <>
      {props.customer && <bdi translate="no">{props.customer}</bdi>}
      {props.customer && props.area && " · "}
      {props.area && <bdi>{props.area}</bdi>}
    </>
  );
}

export default function Deliveries() {
  const { t } = useTranslation(["deliveries"]);
  const language = useLanguage();
  const data = useLoaderData<typeof loader>();
  const governorates = data.governorates.map((g) => ({ id: g.id, name: g[language] }));
  const areas = data.areas
    .map((a) => ({ id: a.id, governanceId: a.governanceId, name: a[language] }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
  const sortOptions: IndexFiltersProps["sortOptions"] = [
    {
      label: t("deliveries:sort.created"),
      value: "created desc",
      directionLabel: t("deliveries:sort.newest"),
    },
    {
      label: t("deliveries:sort.created"),
      value: "created asc",
      directionLabel: t("deliveries:sort.oldest"),
    },
  ];
  const stateLabel = (state: DeliveryState) => t(`common:states.${state}`);
  const when = (at: string) => formatDateTime(at, language);
  const kwd = (amount: string) => formatKwd(amount, language);
  const { rows, params } = data;
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const bulk = useFetcher<{ intent?: string; outcomes?: BulkOutcome[]; error?: string }>();
  const { smDown } = useBreakpoints();
  const { mode, setMode } = useSetIndexFiltersMode();

  // Read the rows again every REFRESH_MS while the page is visible, and when it becomes visible.
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    const again = () => {
      if (document.visibilityState === "visible") revalidate.current();
    };
    const timer = setInterval(again, REFRESH_MS);
    document.addEventListener("visibilitychange", again);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", again);
    };
  }, []);

  const go = useCallback(
    (changes: Record<string, string | undefined>) => {
      const next = new URLSearchParams(searchParams);
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined || value === "") next.delete(key);
        else next.set(key, value);
      }
      // Any change but paging starts again from the first page.
      if (!("after" in changes) && !("before" in changes)) {
        next.delete("after");
        next.delete("before");
      }
      navigate(`?${next.toString()}`, { replace: true, preventScrollReset: true });
    },
    [navigate, searchParams],
  );

  const [query, setQuery] = useState(params.q ?? "");
  useEffect(() => setQuery(params.q ?? ""), [params.q]);
  useEffect(() => {
    if ((params.q ?? "") === query.trim()) return;
    const timer = setTimeout(() => go({ q: query.trim() }), 350);
    return () => clearTimeout(timer);
  }, [query, params.q, go]);

  // Stable between renders: Polaris's tabs measure themselves again whenever this array changes.
  const tabs = useMemo(
    () =>
      LIST_TABS.map((tab) => ({
        id: `tab-${tab}`,
        content: t(`deliveries:tabs.${tab}`),
        onAction: () => go({ tab: tab === "all" ? undefined : tab }),
      })),
    [t, go],
  );
  const selectedTab = Math.max(0, LIST_TABS.indexOf(params.tab));

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
        <BlockStack gap="200">
          <TextField
            label={t("deliveries:filters.from")}
            type="date"
            autoComplete="off"
            value={params.from ?? ""}
            onChange={(value) => go({ from: value })}
          />
          <TextField
            label={t("deliveries:filters.to")}
            type="date"
            autoComplete="off"
            value={params.to ?? ""}
            onChange={(value) => go({ to: value })}
          />
        </BlockStack>
      ),
    },
  ];
  const governorateName = governorates.find((g) => g.id === params.governorate)?.name;
  const areaName = areas.find((a) => a.id === params.area)?.name;
  const appliedFilters: IndexFiltersProps["appliedFilters"] = [
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
              from: params.from ?? "…",
              to: params.to ?? "…",
            }),
            onRemove: () => go({ from: undefined, to: undefined }),
          },
        ]
      : []),
  ];

  const resourceIds = useMemo(() => rows.map((r) => ({ id: r.id })), [rows]);
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(resourceIds);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const submitBulk = (intent: "retry" | "cancel") => {
    const form = new FormData();
    form.set("intent", intent);
    for (const id of selectedResources) form.append("id", id);
    bulk.submit(form, { method: "post" });
    clearSelection();
    setConfirmCancel(false);
  };
  const outcomes = bulk.data?.outcomes ?? [];
  const failed = outcomes.filter((o) => !o.ok);
  const orderOf = (id: string) => rows.find((r) => r.id === id)?.orderName ?? id;

  const loading =
    navigation.state === "loading" && navigation.location.pathname.endsWith("/deliveries");

  return (
    <Page title={t("deliveries:title")} fullWidth>
      <BlockStack gap="400">
        {data.searchTruncated && <Banner tone="info">{t("deliveries:truncated")}</Banner>}
        {bulk.data?.outcomes && (
          <Banner
            tone={failed.length > 0 ? "warning" : "success"}
            title={
              bulk.data.intent === "cancel"
                ? t("deliveries:bulk.cancelled", {
                    done: outcomes.length - failed.length,
                    total: outcomes.length,
                  })
                : t("deliveries:bulk.retried", {
                    done: outcomes.length - failed.length,
                    total: outcomes.length,
                  })
            }
          >
            {failed.length > 0 && (
              <BlockStack gap="100">
                {failed.map((o) => (
                  <Text as="p" key={o.id}>
                    {orderOf(o.id)}: {o.message}
                  </Text>
                ))}
              </BlockStack>
            )}
          </Banner>
        )}
        <Card padding="0">
          <IndexFilters
            tabs={tabs}
            selected={selectedTab}
            onSelect={() => undefined}
            queryValue={query}
            queryPlaceholder={t("deliveries:search")}
            onQueryChange={setQuery}
            onQueryClear={() => {
              setQuery("");
              go({ q: undefined });
            }}
            sortOptions={sortOptions}
            sortSelected={[params.sort === "oldest" ? "created asc" : "created desc"]}
            onSort={(value) => go({ sort: value[0] === "created asc" ? "oldest" : undefined })}
            filters={filters}
            appliedFilters={appliedFilters}
            onClearAll={() =>
              go({
                state: undefined,
                cod: undefined,
                governorate: undefined,
                area: undefined,
                from: undefined,
                to: undefined,
              })
            }
            mode={mode}
            setMode={setMode}
            canCreateNewView={false}
            loading={loading}
            cancelAction={{ onAction: () => undefined, disabled: false, loading: false }}
          />
          <IndexTable
            condensed={smDown}
            resourceName={{
              singular: t("deliveries:resource.singular"),
              plural: t("deliveries:resource.plural"),
            }}
            itemCount={rows.length}
            selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
            onSelectionChange={handleSelectionChange}
            promotedBulkActions={[
              { content: t("deliveries:bulk.retry"), onAction: () => submitBulk("retry") },
              { content: t("deliveries:bulk.cancel"), onAction: () => setConfirmCancel(true) },
            ]}
            emptyState={
              <EmptySearchResult
                title={t("deliveries:empty.title")}
                description={
                  params.q || appliedFilters.length > 0
                    ? t("deliveries:empty.filtered")
                    : t("deliveries:empty.none")
                }
                withIllustration
              />
            }
            headings={[
              { title: t("deliveries:columns.order") },
              { title: t("deliveries:columns.customer") },
              { title: t("deliveries:columns.area") },
              { title: t("deliveries:columns.cod"), alignment: "end" },
              { title: t("deliveries:columns.state") },
              { title: t("deliveries:columns.courierNumber") },
              { title: t("deliveries:columns.created") },
            ]}
            pagination={{
              hasNext: data.next !== null,
              hasPrevious: data.previous !== null,
              onNext: () => go({ after: data.next ?? undefined, before: undefined }),
              onPrevious: () => go({ before: data.previous ?? undefined, after: undefined }),
            }}
          >
            {rows.map((d, index) =>
              smDown ? (
                <IndexTable.Row
                  id={d.id}
                  key={d.id}
                  position={index}
                  selected={selectedResources.includes(d.id)}
                >
                  <Box padding="300">
                    <BlockStack gap="100">
                      <InlineStack align="space-between" gap="200" wrap={false}>
                        <OrderLink id={d.id} name={d.orderName} fallback={t("deliveries:order")} />
                        <Text as="span" tone="subdued" variant="bodySm">
                          {when(d.createdAt)}
                        </Text>
                      </InlineStack>
                      <Text as="span" variant="bodySm">
                        <CustomerAndArea customer={d.customer} area={d.area?.[language] ?? null} />
                      </Text>
                      <InlineStack gap="200" blockAlign="center">
                        <Badge tone={stateTone(d.state)}>{stateLabel(d.state)}</Badge>
                        {d.stuck && <Badge tone="warning">{t("deliveries:stuck")}</Badge>}
                        {d.cod && (
                          <Text as="span" variant="bodySm">
                            {kwd(d.cod)}
                          </Text>
                        )}
                      </InlineStack>
                    </BlockStack>
                  </Box>
                </IndexTable.Row>
              ) : (
                <IndexTable.Row
                  id={d.id}
                  key={d.id}
                  position={index}
                  selected={selectedResources.includes(d.id)}
                >
                  <IndexTable.Cell>
                    <OrderLink id={d.id} name={d.orderName} fallback={t("deliveries:order")} />
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Box maxWidth="180px">
                      <Text as="span" truncate>
                        {d.customer ?? "—"}
                      </Text>
                    </Box>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Box maxWidth="160px">
                      <Text as="span" truncate>
                        {d.area?.[language] ?? "—"}
                      </Text>
                    </Box>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {d.cod ? kwd(d.cod) : "—"}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Box maxWidth="260px">
                      <BlockStack gap="100">
                        <InlineStack gap="100">
                          <Badge tone={stateTone(d.state)}>{stateLabel(d.state)}</Badge>
                          {d.stuck && <Badge tone="warning">{t("deliveries:stuck")}</Badge>}
                        </InlineStack>
                        {/* In its own direction: an English reason on an Arabic page is cut at
                            its end, not its start. */}
                        {d.reason && (
                          <div dir="auto">
                            <Text as="span" tone="subdued" variant="bodySm" truncate>
                              {translateMessage(t, d.reason)}
                            </Text>
                          </div>
                        )}
                      </BlockStack>
                    </Box>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{d.courierNumber ?? "—"}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" variant="bodySm">
                      {when(d.createdAt)}
                    </Text>
                  </IndexTable.Cell>
                </IndexTable.Row>
              ),
            )}
          </IndexTable>
        </Card>
      </BlockStack>
      <Modal
        open={confirmCancel}
        onClose={() => setConfirmCancel(false)}
        title={t("deliveries:bulk.confirmTitle", { count: selectedResources.length })}
        primaryAction={{
          content: t("deliveries:bulk.cancel"),
          destructive: true,
          onAction: () => submitBulk("cancel"),
        }}
        secondaryActions={[
          { content: t("deliveries:bulk.keep"), onAction: () => setConfirmCancel(false) },
        ]}
      >
        <Modal.Section>
          <Text as="p">{t("deliveries:bulk.confirmBody")}</Text>
        </Modal.Section>
      </Modal>
    </Page>
  );
}
