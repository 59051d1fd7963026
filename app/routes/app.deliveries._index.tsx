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
import { retryDelivery } from "../deliveries/review.server";
import { DELIVERY_STATES, STATE_LABELS, type DeliveryState } from "../deliveries/states";
import { isStuck } from "../models/deliveries.server";
import { formatKwd } from "../components/format";
import { encodeCursor, LIST_TABS, type ListTab } from "../models/delivery-list";
import { listDeliveryPage } from "../models/delivery-list.server";
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
  const lang = "en" as "en" | "ar";
  const areaName = new Map(places.areas.map((a) => [a.id, a[lang]]));
  return {
    params,
    rows: page.rows.map((d) => ({
      id: d.id,
      orderName: d.orderName,
      customer: d.customerName,
      area: d.areaId === null ? null : (areaName.get(d.areaId) ?? null),
      cod: d.cashToCollect,
      state: d.state as DeliveryState,
      reason: d.stateReason,
      stuck: isStuck(d, now),
      courierNumber: d.courierOrderNumber,
      createdAt: d.createdAt.toISOString(),
    })),
    next: page.next ? encodeCursor(page.next) : null,
    previous: page.previous ? encodeCursor(page.previous) : null,
    searchTruncated: page.searchTruncated,
    governorates: places.governorates.map((g) => ({ id: g.id, name: g[lang] })),
    areas: places.areas
      .map((a) => ({ id: a.id, governanceId: a.governanceId, name: a[lang] }))
      .sort((a, b) => a.name.localeCompare(b.name, lang)),
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

const TAB_LABELS: Record<ListTab, string> = {
  all: "All",
  attention: "Needs attention",
  in_progress: "In progress",
  out_for_delivery: "Out for delivery",
  delivered: "Delivered",
  failed_returned: "Failed or returned",
  cancelled: "Cancelled",
};

const SORT_OPTIONS: IndexFiltersProps["sortOptions"] = [
  { label: "Created", value: "created desc", directionLabel: "Newest first" },
  { label: "Created", value: "created asc", directionLabel: "Oldest first" },
];

const dateTime = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "Asia/Kuwait",
});

export default function Deliveries() {
  const data = useLoaderData<typeof loader>();
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

  const tabs = LIST_TABS.map((tab) => ({
    id: `tab-${tab}`,
    content: TAB_LABELS[tab],
    onAction: () => go({ tab: tab === "all" ? undefined : tab }),
  }));
  const selectedTab = Math.max(0, LIST_TABS.indexOf(params.tab));

  const states = listStates(params.state);
  const areasOfGovernorate = data.areas.filter(
    (a) => params.governorate === undefined || a.governanceId === params.governorate,
  );
  const filters: IndexFiltersProps["filters"] = [
    {
      key: "state",
      label: "State",
      filter: (
        <ChoiceList
          title="State"
          titleHidden
          allowMultiple
          choices={DELIVERY_STATES.map((s) => ({ label: STATE_LABELS[s], value: s }))}
          selected={states}
          onChange={(value) => go({ state: value.join(",") })}
        />
      ),
      shortcut: true,
    },
    {
      key: "cod",
      label: "Payment",
      filter: (
        <ChoiceList
          title="Payment"
          titleHidden
          choices={[
            { label: "Cash on delivery", value: "cod" },
            { label: "Prepaid", value: "prepaid" },
          ]}
          selected={params.cod ? [params.cod] : []}
          onChange={(value) => go({ cod: value[0] })}
        />
      ),
      shortcut: true,
    },
    {
      key: "place",
      label: "Governorate and area",
      filter: (
        <BlockStack gap="200">
          <Select
            label="Governorate"
            options={[
              { label: "Any governorate", value: "" },
              ...data.governorates.map((g) => ({ label: g.name, value: String(g.id) })),
            ]}
            value={params.governorate === undefined ? "" : String(params.governorate)}
            onChange={(value) => go({ governorate: value, area: undefined })}
          />
          <Select
            label="Area"
            options={[
              { label: "Any area", value: "" },
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
      label: "Created between",
      filter: (
        <BlockStack gap="200">
          <TextField
            label="From"
            type="date"
            autoComplete="off"
            value={params.from ?? ""}
            onChange={(value) => go({ from: value })}
          />
          <TextField
            label="To"
            type="date"
            autoComplete="off"
            value={params.to ?? ""}
            onChange={(value) => go({ to: value })}
          />
        </BlockStack>
      ),
    },
  ];
  const governorateName = data.governorates.find((g) => g.id === params.governorate)?.name;
  const areaName = data.areas.find((a) => a.id === params.area)?.name;
  const appliedFilters: IndexFiltersProps["appliedFilters"] = [
    ...(states.length > 0
      ? [
          {
            key: "state",
            label: `State: ${states.map((s) => STATE_LABELS[s]).join(", ")}`,
            onRemove: () => go({ state: undefined }),
          },
        ]
      : []),
    ...(params.cod
      ? [
          {
            key: "cod",
            label: params.cod === "cod" ? "Cash on delivery" : "Prepaid",
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
            label: `Created ${params.from ?? "…"} – ${params.to ?? "…"}`,
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
    <Page title="Deliveries" fullWidth>
      <BlockStack gap="400">
        {data.searchTruncated && (
          <Banner tone="info">
            More than 500 deliveries start with what you typed; type more of it to see the rest.
          </Banner>
        )}
        {bulk.data?.outcomes && (
          <Banner
            tone={failed.length > 0 ? "warning" : "success"}
            title={
              bulk.data.intent === "cancel"
                ? `Cancelled or being cancelled: ${outcomes.length - failed.length} of ${outcomes.length}`
                : `Sent again: ${outcomes.length - failed.length} of ${outcomes.length}`
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
            queryPlaceholder="Search by order, courier number, customer name or phone"
            onQueryChange={setQuery}
            onQueryClear={() => {
              setQuery("");
              go({ q: undefined });
            }}
            sortOptions={SORT_OPTIONS}
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
            resourceName={{ singular: "delivery", plural: "deliveries" }}
            itemCount={rows.length}
            selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
            onSelectionChange={handleSelectionChange}
            promotedBulkActions={[
              { content: "Send again", onAction: () => submitBulk("retry") },
              { content: "Cancel deliveries", onAction: () => setConfirmCancel(true) },
            ]}
            emptyState={
              <EmptySearchResult
                title="No deliveries here"
                description={
                  params.q || appliedFilters.length > 0
                    ? "Try another search or remove a filter."
                    : "Deliveries appear here when orders are fulfilled or sent to the courier."
                }
                withIllustration
              />
            }
            headings={[
              { title: "Order" },
              { title: "Customer" },
              { title: "Area" },
              { title: "Cash on delivery", alignment: "end" },
              { title: "State" },
              { title: "Courier number" },
              { title: "Created" },
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
                  onClick={() => navigate(`/app/deliveries/${d.id}`)}
                >
                  <Box padding="300">
                    <BlockStack gap="100">
                      <InlineStack align="space-between" gap="200" wrap={false}>
                        <Text as="span" fontWeight="semibold">
                          {d.orderName ?? "Order"}
                        </Text>
                        <Text as="span" tone="subdued" variant="bodySm">
                          {dateTime.format(new Date(d.createdAt))}
                        </Text>
                      </InlineStack>
                      <Text as="span" variant="bodySm">
                        {[d.customer, d.area].filter(Boolean).join(" · ") || "—"}
                      </Text>
                      <InlineStack gap="200" blockAlign="center">
                        <Badge tone={stateTone(d.state)}>{STATE_LABELS[d.state]}</Badge>
                        {d.stuck && <Badge tone="warning">No movement for 3 days</Badge>}
                        {d.cod && (
                          <Text as="span" variant="bodySm">
                            {formatKwd(d.cod)}
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
                  onClick={() => navigate(`/app/deliveries/${d.id}`)}
                >
                  <IndexTable.Cell>
                    <Text as="span" fontWeight="semibold">
                      {d.orderName ?? "Order"}
                    </Text>
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
                        {d.area ?? "—"}
                      </Text>
                    </Box>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {d.cod ? formatKwd(d.cod) : "—"}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Box maxWidth="260px">
                      <BlockStack gap="100">
                        <InlineStack gap="100">
                          <Badge tone={stateTone(d.state)}>{STATE_LABELS[d.state]}</Badge>
                          {d.stuck && <Badge tone="warning">No movement for 3 days</Badge>}
                        </InlineStack>
                        {d.reason && (
                          <Text as="span" tone="subdued" variant="bodySm" truncate>
                            {d.reason}
                          </Text>
                        )}
                      </BlockStack>
                    </Box>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{d.courierNumber ?? "—"}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" variant="bodySm">
                      {dateTime.format(new Date(d.createdAt))}
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
        title={`Cancel ${selectedResources.length} deliveries?`}
        primaryAction={{
          content: "Cancel deliveries",
          destructive: true,
          onAction: () => submitBulk("cancel"),
        }}
        secondaryActions={[{ content: "Keep them", onAction: () => setConfirmCancel(false) }]}
      >
        <Modal.Section>
          <Text as="p">
            Each one is cancelled at the courier if the courier has it; those not sent yet are not
            sent. Delivered and returned parcels cannot be cancelled and are left as they are.
          </Text>
        </Modal.Section>
      </Modal>
    </Page>
  );
}
