import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  InlineStack,
  Page,
  Text,
} from "@shopify/polaris";
import { DaySelect } from "../components/day-select";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CourierExceptionsCard } from "../components/deliveries/courier-exceptions-card";
import { CheckoutRatesReportCard } from "../components/reports/checkout-rates-card";
import { checkoutRatesReport, exceptionItem, reportWithAppCounts } from "../pages/reports.server";
import type { ReportLine } from "../domain/report-lines";
import { useNotice } from "../components/notice";
import { formatDate, formatDateTime, formatKwd, formatNumber } from "../i18n/format";
import { useLanguage } from "../i18n/language";
import { courierReports } from "../services/courier-reports.server";
import { authenticate } from "../shopify.server";

/**
 * Courier reports (issue 16, ADR 0039): the courier's report for a period field by field, the
 * courier's orders of the period the app does not know (listed, never imported), and the
 * exceptions the courier reported; and how checkout's rates were answered in the last 30 days.
 */
const day = (offsetDays: number) =>
  new Date(Date.now() + 3 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
const dayOf = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null);

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const url = new URL(request.url);
  const from = dayOf(url.searchParams.get("from")) ?? day(-30);
  const to = dayOf(url.searchParams.get("to")) ?? day(0);
  const [reports, checkoutRates] = await Promise.all([
    courierReports(session.shop, from, to),
    checkoutRatesReport(session.shop),
  ]);
  return {
    from,
    to,
    ...reports,
    report: reports.connected
      ? await reportWithAppCounts(session.shop, from, to, reports.report)
      : null,
    exceptions: reports.exceptions.map(exceptionItem),
    checkoutRates,
  };
};

/** The courier's own words and data: read left to right or as written, never translated. */
const Data = ({ children }: { children: string }) => (
  <span translate="no" dir="auto">
    {children}
  </span>
);

/** A figure of the courier's report: dinars with three decimals, a day, a count, or its text. */
function ReportValue({ line }: { line: ReportLine }) {
  const language = useLanguage();
  if (line.kind === "kwd") return <>{formatKwd(Number(line.value), language)}</>;
  if (line.kind === "day") return <>{formatDate(line.value, language)}</>;
  if (line.kind === "count") return <>{formatNumber(Number(line.value), language)}</>;
  return <Data>{line.value}</Data>;
}

export default function Reports() {
  const { t, i18n } = useTranslation(["reports", "exceptions", "messages"]);
  const say = useNotice();
  const language = useLanguage();
  const data = useLoaderData<typeof loader>();
  // The courier's fields the app knows are named in the page's language; others as the courier
  // wrote them (kept, never dropped).
  const fieldName = (row: { path: string[] }) =>
    row.path.length > 0 && row.path.every((key) => i18n.exists(`reports:fields.${key}`))
      ? row.path.map((key) => t(`reports:fields.${key}`)).join(" › ")
      : null;
  const [from, setFrom] = useState(data.from);
  const [to, setTo] = useState(data.to);
  return (
    <Page title={t("reports:title")} subtitle={t("reports:subtitle")}>
      <BlockStack gap="400">
        <Card>
          <Form method="get">
            <InlineStack gap="300" blockAlign="end" wrap>
              <DaySelect label={t("reports:from")} name="from" value={from} onChange={setFrom} />
              <DaySelect label={t("reports:to")} name="to" value={to} onChange={setTo} />
              <Button submit>{t("reports:show")}</Button>
            </InlineStack>
          </Form>
        </Card>
        {!data.connected ? (
          <Banner tone="warning">{t("reports:notConnected")}</Banner>
        ) : (
          <>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("reports:report.title")}
                </Text>
                <Text as="p" tone="subdued">
                  {t("reports:report.intro")} {t("reports:report.appHelp")}
                </Text>
                {data.reportError ? (
                  <Banner tone="critical">{say(data.reportError)}</Banner>
                ) : (data.report ?? []).length === 0 ? (
                  <Text as="p" tone="subdued">
                    {t("reports:report.empty")}
                  </Text>
                ) : (
                  <DataTable
                    columnContentTypes={["text", "numeric", "numeric"]}
                    headings={[
                      t("reports:report.field"),
                      t("reports:report.value"),
                      t("reports:report.app"),
                    ]}
                    rows={(data.report ?? []).map((r, i) => [
                      fieldName(r) ?? <Data key={`f${i}`}>{r.field}</Data>,
                      <ReportValue key={`v${i}`} line={r} />,
                      r.app === null ? "" : formatNumber(r.app, language),
                    ])}
                  />
                )}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("reports:unknown.title")}
                </Text>
                <Text as="p" tone="subdued">
                  {t("reports:unknown.intro")}
                </Text>
                {data.historyError ? (
                  <Banner tone="critical">{say(data.historyError)}</Banner>
                ) : data.unknown.length === 0 ? (
                  <Text as="p">
                    {data.seen === 0
                      ? t("reports:unknown.noneInPeriod")
                      : t("reports:unknown.none", { n: data.seen })}
                  </Text>
                ) : (
                  <DataTable
                    columnContentTypes={["text", "text", "text"]}
                    headings={[
                      t("reports:unknown.order"),
                      t("reports:unknown.status"),
                      t("reports:unknown.created"),
                    ]}
                    rows={data.unknown.map((o, i) => [
                      <Data key={`o${i}`}>{o.orderNumber}</Data>,
                      o.state ? (
                        t(`common:states.${o.state}`)
                      ) : (
                        <Data key={`s${i}`}>{o.status.replace(/[_-]+/g, " ")}</Data>
                      ),
                      o.createdAtInstant ? (
                        formatDateTime(o.createdAtInstant, language)
                      ) : (
                        <Data key={`c${i}`}>{o.createdAt}</Data>
                      ),
                    ])}
                  />
                )}
              </BlockStack>
            </Card>
          </>
        )}
        <CourierExceptionsCard
          exceptions={data.exceptions}
          showOrder
          title={t("exceptions:reports.title")}
          emptyText={t("exceptions:reports.none")}
        />
        <CheckoutRatesReportCard report={data.checkoutRates} />
      </BlockStack>
    </Page>
  );
}
