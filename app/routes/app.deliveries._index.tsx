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
  Banner,
  BlockStack,
  Card,
  EmptySearchResult,
  IndexFilters,
  IndexTable,
  Page,
  Text,
  useIndexResourceState,
  IndexFiltersMode,
  useSetIndexFiltersMode,
  type IndexFiltersProps,
} from "@shopify/polaris";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CourierExceptionsCard } from "../components/deliveries/courier-exceptions-card";
import { useDeliveriesExportAction } from "../components/deliveries/export-action";
import { listFilters } from "../components/deliveries/list-filters";
import { CancelDialog, type FulfillmentChoice } from "../components/deliveries/cancel-dialog";
import { DeliveryListColumns } from "../components/deliveries/list-columns";
import { DeliveryListRow } from "../components/deliveries/list-row";
import {
  loadDeliveryListPage,
  retryOrCancelDeliveries,
  type BulkOutcome,
} from "../pages/deliveries.server";
import { useNotice } from "../components/notice";
import { LABELS_LIMIT } from "../api-contract";
import { useLanguage } from "../i18n/language";
import { LIST_TABS, type ListTab } from "../models/read/delivery-list";
import { formatNumber } from "../i18n/format";
import { authenticate } from "../shopify.server";
import { useSmallScreen } from "../components/small-screen";

/**
 * The deliveries list (ADR 0041): tabs, filters, search and keyset pages over the shop's
 * deliveries, read again while visible, with bulk "Send again" and "Cancel". Its data and bulk
 * actions are app/pages/deliveries.server.ts; its rows and filters app/components/deliveries/.
 */

/** How often an open, visible list reads its rows again (states change without a reload). */
const REFRESH_MS = 15_000;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return loadDeliveryListPage(session.shop, new URL(request.url).searchParams);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = form.get("intent");
  const ids = form.getAll("id").map(String);
  if ((intent !== "retry" && intent !== "cancel") || ids.length === 0) {
    return Response.json(
      { error: "Choose deliveries, then Send again or Cancel." },
      { status: 400 },
    );
  }
  return Response.json({
    intent,
    outcomes: await retryOrCancelDeliveries(session.shop, admin, intent, ids, {
      cancelFulfillment: form.get("fulfillment") === "cancel",
    }),
  });
};

export default function Deliveries() {
  const { t } = useTranslation(["deliveries", "exceptions"]);
  const language = useLanguage();
  const say = useNotice();
  const data = useLoaderData<typeof loader>();
  const exportAction = useDeliveriesExportAction();
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
  const { rows, params } = data;
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const bulk = useFetcher<{ intent?: string; outcomes?: BulkOutcome[]; error?: string }>();
  const smDown = useSmallScreen();
  // Opened with filters or a search (a link from Home, a bookmark): they show, so the merchant
  // sees why the list is what it is and can remove them.
  const { mode, setMode } = useSetIndexFiltersMode(
    params.q ||
      params.state ||
      params.cod ||
      params.governorate !== undefined ||
      params.area !== undefined ||
      params.from ||
      params.to ||
      params.finished
      ? IndexFiltersMode.Filtering
      : IndexFiltersMode.Default,
  );

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

  // Stable between renders: Polaris's tabs measure themselves again whenever this array changes
  // (the counts are compared by value: the list is read again every REFRESH_MS).
  const counts = JSON.stringify(data.tabCounts);
  const tabs = useMemo(() => {
    const count = JSON.parse(counts) as Partial<Record<ListTab, number>>;
    return LIST_TABS.map((tab) => ({
      id: `tab-${tab}`,
      content: t(`deliveries:tabs.${tab}`),
      badge: count[tab] === undefined ? undefined : formatNumber(count[tab], language),
      accessibilityLabel:
        count[tab] === undefined
          ? undefined
          : t("deliveries:tabCount", {
              tab: t(`deliveries:tabs.${tab}`),
              number: formatNumber(count[tab], language),
            }),
      onAction: () => go({ tab: tab === "all" ? undefined : tab }),
    }));
  }, [t, go, counts, language]);
  const selectedTab = Math.max(0, LIST_TABS.indexOf(params.tab));

  const { filters, appliedFilters } = listFilters({ params, governorates, areas, go, t, language });

  const resourceIds = useMemo(() => rows.map((r) => ({ id: r.id })), [rows]);
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(resourceIds);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const submitBulk = (intent: "retry" | "cancel", fulfillment?: FulfillmentChoice) => {
    const form = new FormData();
    form.set("intent", intent);
    if (fulfillment) form.set("fulfillment", fulfillment);
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
    <Page title={t("deliveries:title")} fullWidth secondaryActions={[exportAction]}>
      <BlockStack gap="400">
        {data.searchTruncated && <Banner tone="info">{t("deliveries:truncated")}</Banner>}
        {data.finishedTruncated && <Banner tone="info">{t("deliveries:finishedTruncated")}</Banner>}
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
                    <bdi translate="no">{orderOf(o.id)}</bdi>:{" "}
                    <span dir="auto">{say(o.message)}</span>
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
          <DeliveryListColumns>
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
                {
                  content: t("deliveries:bulk.printLabels"),
                  // The labels page prints those the courier has created and says why the others
                  // have none (issue 29).
                  onAction: () =>
                    navigate(
                      `/app/labels?deliveryIds=${encodeURIComponent(selectedResources.slice(0, LABELS_LIMIT).join(","))}`,
                    ),
                },
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
              {rows.map((d, index) => (
                <DeliveryListRow
                  key={d.id}
                  d={d}
                  index={index}
                  selected={selectedResources.includes(d.id)}
                  condensed={smDown}
                />
              ))}
            </IndexTable>
          </DeliveryListColumns>
        </Card>
        <CourierExceptionsCard
          exceptions={data.exceptions}
          showOrder
          title={t("exceptions:attention.title")}
          intro={t("exceptions:attention.intro")}
        />
      </BlockStack>
      <CancelDialog
        open={confirmCancel}
        onClose={() => setConfirmCancel(false)}
        onConfirm={(fulfillment) => submitBulk("cancel", fulfillment)}
        count={selectedResources.length}
      />
    </Page>
  );
}
