import {
  Link as RemixLink,
  useFetcher,
  useLoaderData,
  useNavigate,
  useNavigation,
  useSearchParams,
} from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  EmptySearchResult,
  Filters,
  IndexTable,
  InlineStack,
  List,
  Modal,
  Page,
  ProgressBar,
  Text,
  useIndexResourceState,
} from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { BULK_LIMIT, QUOTE_LIMIT } from "../../domain/limits";
import type { SendActionResult, SendPageData } from "../../pages/send.server";
import { SelectionPrice } from "./selection-price";
import { formatDate } from "../../i18n/format";
import { DayRangePicker } from "../day-range-picker";
import { useLanguage } from "../../i18n/language";
import type { SendProgress } from "../../actions/send-status.server";
import { SendOrderRow } from "./order-row";
import { progressOf, useSendRun, type RowOutcome } from "./use-send-run";
import { useSmallScreen } from "../small-screen";

/**
 * "Send to courier": the unfulfilled orders in Shopify's table, searched and filtered by day;
 * the selection is sent after a confirmation that says how many and what happens, and each row
 * then shows its order's outcome.
 */
export function SendPage() {
  const { t } = useTranslation(["send"]);
  const firstPage = useLoaderData<SendPageData>();
  const [orders, setOrders] = useState(firstPage.orders);
  const [nextCursor, setNextCursor] = useState(firstPage.nextCursor);
  const pager = useFetcher<SendPageData>();
  const { outcomes, run, start, sending, done, finished, stalled } = useSendRun();
  const [confirming, setConfirming] = useState(false);
  const smDown = useSmallScreen();
  const navigation = useNavigation();

  // A new search or filter: its first page replaces the list.
  useEffect(() => {
    setOrders(firstPage.orders);
    setNextCursor(firstPage.nextCursor);
  }, [firstPage]);
  // "Load more": the next page joins the list.
  useEffect(() => {
    if (pager.state !== "idle" || !pager.data) return;
    const page = pager.data;
    setOrders((current) => {
      const known = new Set(current.map((o) => o.id));
      return [...current, ...page.orders.filter((o) => !known.has(o.id))];
    });
    setNextCursor(page.nextCursor);
  }, [pager.state, pager.data]);

  const selectable = (id: string) => {
    const outcome = outcomes[id];
    return !outcome || (outcome.phase === "refused" && outcome.deliveryId === null);
  };
  const resources = orders.map((o) => ({ id: o.id }));
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(resources, { resourceFilter: ({ id }) => selectable(String(id)) });
  const selected = orders.map((o) => o.id).filter((id) => selectedResources.includes(id));
  const overLimit = selected.length > BULK_LIMIT;
  // "Price the selection": the courier's price for each selected order, and their total.
  const selectionQuoter = useFetcher<SendActionResult>({ key: "quote-selection" });
  const selectionQuotes =
    selectionQuoter.data?.intent === "quote-selection" ? selectionQuoter.data.quotes : null;
  const quoteOf = new Map(selectionQuotes?.map((q) => [q.orderId, q.quote]));
  const priceSelection = () => {
    const form = new FormData();
    form.set("intent", "quote-selection");
    for (const id of selected) form.append("orderIds", id);
    selectionQuoter.submit(form, { method: "post" });
  };

  const send = () => {
    setConfirming(false);
    if (selected.length === 0 || overLimit) return;
    start(selected);
    clearSelection();
  };
  const [searchParams] = useSearchParams();
  const loadMore = () => {
    if (!nextCursor) return;
    const next = new URLSearchParams(searchParams);
    next.set("after", nextCursor);
    pager.load(`/app/send?${next.toString()}`);
  };

  return (
    <Page title={t("send:title")} subtitle={t("send:subtitle")}>
      <BlockStack gap="400">
        {firstPage.waitingForCustomers > 0 && (
          <Banner
            tone="info"
            title={t("send:waitingForCustomers.title", { count: firstPage.waitingForCustomers })}
          >
            {t("send:waitingForCustomers.body")}{" "}
            <RemixLink to="/app/customer-answers">{t("send:waitingForCustomers.link")}</RemixLink>
          </Banner>
        )}
        {overLimit && (
          <Banner tone="critical" title={t("send:limit.title", { count: selected.length })}>
            {t("send:limit.body", { limit: BULK_LIMIT, extra: selected.length - BULK_LIMIT })}
          </Banner>
        )}
        {run && (
          <RunProgress
            orderIds={run.orderIds}
            outcomes={outcomes}
            done={done}
            sending={sending}
            finished={finished}
            stalled={stalled}
            batch={run.nextBatch + 1}
            batches={run.batches.length}
          />
        )}
        {(selectionQuoter.state !== "idle" || selectionQuotes) && (
          <SelectionPrice
            pending={selectionQuoter.state !== "idle"}
            asked={selected.length}
            quotes={selectionQuotes ?? []}
            orderName={(id) => orders.find((o) => o.id === id)?.name ?? ""}
          />
        )}
        <Card padding="0">
          <SearchAndDates loading={navigation.state === "loading"} />
          <IndexTable
            resourceName={{
              singular: t("send:resource.singular"),
              plural: t("send:resource.plural"),
            }}
            itemCount={orders.length}
            selectedItemsCount={allResourcesSelected ? "All" : selected.length}
            onSelectionChange={handleSelectionChange}
            promotedBulkActions={[
              {
                content: t("send:sendSelected", { count: selected.length }),
                disabled: overLimit || sending,
                onAction: () => setConfirming(true),
              },
            ]}
            emptyState={
              <EmptySearchResult
                title={t("send:empty.title")}
                description={
                  firstPage.params.q || firstPage.params.from || firstPage.params.to
                    ? t("send:empty.filtered")
                    : t("send:empty.none")
                }
                withIllustration
              />
            }
            headings={
              smDown
                ? [{ title: t("send:columns.order") }]
                : [
                    { title: t("send:columns.order") },
                    { title: t("send:columns.customer") },
                    { title: t("send:columns.total"), alignment: "end" },
                    { title: t("send:columns.payment") },
                    { title: t("send:columns.price") },
                    { title: t("send:columns.outcome") },
                  ]
            }
          >
            {orders.map((order, index) => (
              <SendOrderRow
                key={order.id}
                order={order}
                index={index}
                selected={selectedResources.includes(order.id)}
                disabled={!selectable(order.id) || sending}
                outcome={outcomes[order.id]}
                condensed={smDown}
                selectionQuote={quoteOf.get(order.id)}
              />
            ))}
          </IndexTable>
        </Card>
        <InlineStack gap="300" blockAlign="center" align="space-between">
          {/* Nothing to select, nothing to count or price. */}
          {orders.length > 0 && (
            <InlineStack gap="300" blockAlign="center">
              <Text as="span" tone="subdued">
                {t("send:selectedCount", { count: selected.length, limit: BULK_LIMIT })}
              </Text>
              {/* Beside the count, not among the bulk actions: a phone hides a second one. */}
              <Button
                onClick={priceSelection}
                disabled={selected.length === 0 || selected.length > QUOTE_LIMIT}
                loading={selectionQuoter.state !== "idle"}
              >
                {t("send:priceSelected", { count: selected.length })}
              </Button>
              {selected.length > QUOTE_LIMIT && (
                <Text as="span" tone="caution">
                  {t("send:selection.limit", { limit: QUOTE_LIMIT })}
                </Text>
              )}
            </InlineStack>
          )}
          {nextCursor && (
            <Button loading={pager.state !== "idle"} onClick={loadMore}>
              {t("send:loadMore")}
            </Button>
          )}
        </InlineStack>
      </BlockStack>
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        title={t("send:confirm.title", { count: selected.length })}
        primaryAction={{ content: t("send:confirm.send"), onAction: send }}
        secondaryActions={[
          { content: t("send:confirm.back"), onAction: () => setConfirming(false) },
        ]}
      >
        <Modal.Section>
          <BlockStack gap="200">
            <Text as="p">{t("send:confirm.fulfil", { count: selected.length })}</Text>
            <Text as="p">{t("send:confirm.refused")}</Text>
            <Text as="p">{t("send:confirm.follow")}</Text>
          </BlockStack>
        </Modal.Section>
      </Modal>
    </Page>
  );
}

/** Search by order number or customer, and the days the orders were placed, in the URL. */
function SearchAndDates({ loading }: { loading: boolean }) {
  const { t } = useTranslation(["send"]);
  const language = useLanguage();
  const { params } = useLoaderData<SendPageData>();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const go = useCallback(
    (changes: Record<string, string | undefined>) => {
      const next = new URLSearchParams(searchParams);
      next.delete("after");
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined || value === "") next.delete(key);
        else next.set(key, value);
      }
      navigate(`?${next.toString()}`, { replace: true, preventScrollReset: true });
    },
    [navigate, searchParams],
  );
  const [query, setQuery] = useState(params.q);
  useEffect(() => setQuery(params.q), [params.q]);
  useEffect(() => {
    if (params.q === query.trim()) return;
    const timer = setTimeout(() => go({ q: query.trim() }), 400);
    return () => clearTimeout(timer);
  }, [query, params.q, go]);
  return (
    <Filters
      queryValue={query}
      queryPlaceholder={t("send:search")}
      onQueryChange={setQuery}
      onQueryClear={() => {
        setQuery("");
        go({ q: undefined });
      }}
      loading={loading}
      filters={[
        {
          key: "dates",
          label: t("send:dates.label"),
          pinned: true,
          filter: (
            <DayRangePicker
              label={t("send:dates.pick")}
              from={params.from || undefined}
              to={params.to || undefined}
              onChange={({ from, to }) => go({ from, to })}
            />
          ),
        },
      ]}
      appliedFilters={
        params.from || params.to
          ? [
              {
                key: "dates",
                label: t("send:dates.applied", {
                  from: params.from ? formatDate(params.from, language) : "…",
                  to: params.to ? formatDate(params.to, language) : "…",
                }),
                onRemove: () => go({ from: undefined, to: undefined }),
              },
            ]
          : []
      }
      onClearAll={() => go({ q: undefined, from: undefined, to: undefined })}
    />
  );
}

function RunProgress(props: {
  orderIds: string[];
  outcomes: Record<string, RowOutcome>;
  done: number;
  sending: boolean;
  finished: boolean;
  stalled: boolean;
  batch: number;
  batches: number;
}) {
  const { t } = useTranslation(["send"]);
  const { orderIds, outcomes, done, sending, finished, stalled } = props;
  const counts = new Map<SendProgress, number>();
  for (const id of orderIds) {
    const progress = progressOf(outcomes[id]);
    counts.set(progress, (counts.get(progress) ?? 0) + 1);
  }
  return (
    <Card>
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingSm">
            {t("send:run.done", { done, total: orderIds.length })}
          </Text>
          {sending && (
            <Text as="span" tone="subdued">
              {t("send:run.fulfilling", { batch: props.batch, batches: props.batches })}
            </Text>
          )}
          {!sending && !finished && !stalled && (
            <Text as="span" tone="subdued">
              {t("send:run.waiting")}
            </Text>
          )}
        </InlineStack>
        <ProgressBar
          progress={orderIds.length ? (100 * done) / orderIds.length : 0}
          tone={finished ? "success" : "primary"}
          size="small"
        />
        {finished && (
          <List>
            {[...counts].map(([progress, n]) => (
              <List.Item key={progress}>
                {t("send:run.count", { what: t(`send:progress.${progress}`), count: n })}
              </List.Item>
            ))}
          </List>
        )}
        {stalled && !finished && (
          <Text as="p" tone="caution">
            {t("send:run.stalled")}{" "}
            <RemixLink to="/app/deliveries">{t("send:run.deliveries")}</RemixLink>
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}
