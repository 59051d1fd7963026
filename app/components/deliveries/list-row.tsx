import { Badge, BlockStack, Box, IndexTable, InlineStack, Link, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { longWaitSentence } from "../../domain/waits";
import type { ListPageRow } from "../../pages/deliveries.server";
import { formatDateTime, formatKwd } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { reasonOnPage } from "../../i18n/messages";
import { stateTone } from "../delivery-state";

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

/**
 * What the merchant does about a delivery that waits for them, from its state: the page where it
 * is done (issue 29). A state with nothing to do has none.
 */
export function rowAction(d: Pick<ListPageRow, "id" | "state">) {
  const page = `/app/deliveries/${d.id}`;
  switch (d.state) {
    case "needs_address":
      return { key: "deliveries:rowActions.fixAddress", to: `${page}/fix` };
    case "rejected":
      return { key: "deliveries:rowActions.fixAndSend", to: `${page}/fix` };
    case "needs_review":
      return { key: "deliveries:rowActions.review", to: page };
    case "needs_attention":
    case "failed":
      return { key: "deliveries:rowActions.whatToDo", to: page };
    default:
      return null;
  }
}

/**
 * The reason a delivery waits, whole and wrapping (never cut), in its own direction, and the link
 * that acts on it. The link's click stays its own: the row around it opens the delivery's page.
 */
function ReasonAndAction(props: { d: ListPageRow; reason: string | null }) {
  const { t } = useTranslation(["deliveries"]);
  const action = rowAction(props.d);
  if (!props.reason && !action) return null;
  return (
    <div className="delivery-list-reason">
      <BlockStack gap="100">
        {props.reason && (
          <div dir="auto">
            <Text as="span" tone="subdued" variant="bodySm">
              {props.reason}
            </Text>
          </div>
        )}
        {action && (
          <span onClick={(event) => event.stopPropagation()}>
            <Link url={action.to}>
              <Text as="span" variant="bodySm" fontWeight="medium">
                {t(action.key)}
              </Text>
            </Link>
          </span>
        )}
      </BlockStack>
    </div>
  );
}

/** One delivery of the list: a condensed row on a phone, a row of columns from a tablet up. */
export function DeliveryListRow(props: {
  d: ListPageRow;
  index: number;
  selected: boolean;
  condensed: boolean;
}) {
  const { d, index } = props;
  const { t, i18n } = useTranslation(["deliveries"]);
  const language = useLanguage();
  // Waiting long for Shopify or the courier (issue 24) says so; it has no reason of its own.
  const waiting = d.waitingLong && longWaitSentence(d.waitingLong);
  const reason = waiting
    ? t(waiting.key, { ns: "deliveries", at: formatDateTime(waiting.params.at, language) })
    : reasonOnPage(t, (key) => i18n.exists(key), language, d.state, d.reason);
  const stateLabel = t(`common:states.${d.state}`);
  const when = (at: string) => formatDateTime(at, language);
  const kwd = (amount: string) => formatKwd(amount, language);
  if (props.condensed) {
    return (
      <IndexTable.Row id={d.id} key={d.id} position={index} selected={props.selected}>
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
              <Badge tone={stateTone(d.state)}>{stateLabel}</Badge>
              {d.stuck && <Badge tone="warning">{t("deliveries:stuck")}</Badge>}
              {d.customerAnswered && (
                <Badge tone="attention">{t("deliveries:customerAnswered")}</Badge>
              )}
              {d.cod && (
                <Text as="span" variant="bodySm">
                  {kwd(d.cod)}
                </Text>
              )}
            </InlineStack>
            <ReasonAndAction d={d} reason={reason || null} />
          </BlockStack>
        </Box>
      </IndexTable.Row>
    );
  }
  return (
    <IndexTable.Row id={d.id} key={d.id} position={index} selected={props.selected}>
      <IndexTable.Cell>
        <OrderLink id={d.id} name={d.orderName} fallback={t("deliveries:order")} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Box maxWidth="180px">
          <Text as="span" truncate>
            {d.customer ? <bdi translate="no">{d.customer}</bdi> : "—"}
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
              <Badge tone={stateTone(d.state)}>{stateLabel}</Badge>
              {d.stuck && <Badge tone="warning">{t("deliveries:stuck")}</Badge>}
              {d.customerAnswered && (
                <Badge tone="attention">{t("deliveries:customerAnswered")}</Badge>
              )}
            </InlineStack>
            <ReasonAndAction d={d} reason={reason || null} />
          </BlockStack>
        </Box>
      </IndexTable.Cell>
      <IndexTable.Cell>
        {d.courierNumber ? <bdi translate="no">{d.courierNumber}</bdi> : "—"}
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" variant="bodySm">
          {when(d.createdAt)}
        </Text>
      </IndexTable.Cell>
    </IndexTable.Row>
  );
}
