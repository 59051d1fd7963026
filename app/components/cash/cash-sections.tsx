// Longer than 400 lines: the Cash page's sections (totals, days, statements, the import steps, differences) share its form state and words.
import { Link as RemixLink } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  DropZone,
  InlineGrid,
  InlineStack,
  Link,
  List,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CashActionResult, CashPageData, MarkPaidOutcome } from "../../pages/cash.server";
import { formatDate, formatKwd, formatNumber } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import { translateMessage } from "../../i18n/messages";
import { LineProblemText } from "./line-problem";
import { DaySelect } from "../day-select";
import { useSmallScreen } from "../small-screen";
import { DifferencesList } from "./differences-list";

/** The Cash on delivery page's cards (app/routes/app.cash.tsx), every word from the `cash` catalog. */

const STATEMENT_FIELDS = ["orderNumber", "amount", "date"] as const;

/** Data such as order numbers reads left to right on an Arabic page, and is not translated. */
const Data = ({ children }: { children: string }) => (
  <span translate="no" dir="ltr">
    {children}
  </span>
);

export function CashTotals({ totals }: { totals: CashPageData["totals"] }) {
  const { t } = useTranslation("cash");
  const language = useLanguage();
  const cards = [
    ["toCollect", totals.toCollect],
    ["collected", totals.collected],
    ["settled", totals.settled],
  ] as const;
  return (
    <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
      {cards.map(([key, amount]) => (
        <Card key={key}>
          <BlockStack gap="100">
            <Text as="h2" variant="headingSm">
              {t(`totals.${key}.title`)}
            </Text>
            <Text as="p" variant="headingLg">
              {formatKwd(amount, language)}
            </Text>
            <Text as="p" tone="subdued">
              {t(`totals.${key}.note`)}
            </Text>
          </BlockStack>
        </Card>
      ))}
    </InlineGrid>
  );
}

export function CashOutcome({ result }: { result: CashActionResult }) {
  const { t } = useTranslation(["cash", "messages"]);
  if (result.intent === "markPaid") return <MarkedPaid outcome={result} />;
  if (result.kind === "mapping") return null;
  const problems = result.problems ?? [];
  return (
    <BlockStack gap="200">
      <Banner
        tone={result.kind === "refused" ? "critical" : problems.length ? "warning" : "success"}
        title={
          result.kind === "refused"
            ? translateMessage(t, result.message)
            : t("cash:outcome.saved", {
                lines: result.lines,
                settled: result.settled,
                differences: result.differences,
              })
        }
      >
        {problems.length ? (
          <BlockStack gap="100">
            <p>{t("cash:outcome.problems")}</p>
            <List>
              {problems.slice(0, 50).map((p) => (
                <List.Item key={p.line}>
                  {t("cash:outcome.line", { line: p.line })} <LineProblemText problem={p} />
                </List.Item>
              ))}
            </List>
            {problems.length > 50 ? (
              <p>{t("cash:outcome.more", { n: problems.length - 50 })}</p>
            ) : null}
          </BlockStack>
        ) : null}
      </Banner>
      {"markedPaid" in result && result.markedPaid ? (
        <MarkedPaid outcome={result.markedPaid} />
      ) : null}
    </BlockStack>
  );
}

function MarkedPaid({ outcome }: { outcome: MarkPaidOutcome }) {
  const { t } = useTranslation(["cash", "messages"]);
  return (
    <Banner
      tone={outcome.failed.length ? "warning" : "success"}
      title={t("cash:markPaid.done", { paid: outcome.paid, already: outcome.alreadyPaid })}
    >
      {outcome.failed.length ? (
        <BlockStack gap="100">
          <p>{t("cash:markPaid.failed", { n: outcome.failed.length })}</p>
          <List>
            {outcome.failed.map((f, i) => (
              <List.Item key={i}>
                <Data>{f.orderName ?? "—"}</Data> {translateMessage(t, f.message)}
              </List.Item>
            ))}
          </List>
        </BlockStack>
      ) : null}
    </Banner>
  );
}

export interface StatementDraft {
  file: File | null;
  reference: string;
  receivedOn: string;
}

export function ImportStatementCard(props: {
  draft: StatementDraft;
  setDraft: (draft: StatementDraft) => void;
  mapping: { headers: string[]; guess: Record<string, string | null> } | null;
  busy: boolean;
  onImport: (columns: Record<string, string> | null) => void;
}) {
  const { t } = useTranslation("cash");
  const { draft, setDraft, mapping, busy } = props;
  const [columns, setColumns] = useState<Record<string, string>>({});
  const chosen = (field: string) => columns[field] ?? mapping?.guess[field] ?? "";
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("import.title")}
        </Text>
        <Text as="p" tone="subdued">
          {t("import.intro")}
        </Text>
        <DropZone
          allowMultiple={false}
          accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onDrop={(files) => setDraft({ ...draft, file: files[0] ?? null })}
          label={t("import.file")}
        >
          {draft.file ? (
            <Text as="p" alignment="center">
              <Data>{draft.file.name}</Data>
            </Text>
          ) : (
            <DropZone.FileUpload actionTitle={t("import.choose")} actionHint={t("import.hint")} />
          )}
        </DropZone>
        <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
          <TextField
            label={t("import.reference")}
            value={draft.reference}
            onChange={(reference) => setDraft({ ...draft, reference })}
            autoComplete="off"
          />
          <DaySelect
            label={t("import.receivedOn")}
            name="receivedOnShown"
            value={draft.receivedOn}
            onChange={(receivedOn) => setDraft({ ...draft, receivedOn })}
          />
        </InlineGrid>
        {mapping ? (
          <BlockStack gap="200">
            <Banner tone="info">{t("import.mapping")}</Banner>
            <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
              {STATEMENT_FIELDS.map((field) => (
                <Select
                  key={field}
                  label={t(`import.fields.${field}`)}
                  options={[
                    {
                      label: field === "date" ? t("import.noDate") : t("import.chooseColumn"),
                      value: "",
                    },
                    ...mapping.headers.map((h) => ({ label: h, value: h })),
                  ]}
                  value={chosen(field)}
                  onChange={(value) => setColumns((c) => ({ ...c, [field]: value }))}
                />
              ))}
            </InlineGrid>
            <InlineStack>
              <Button
                variant="primary"
                loading={busy}
                onClick={() =>
                  props.onImport(
                    Object.fromEntries(STATEMENT_FIELDS.map((field) => [field, chosen(field)])),
                  )
                }
              >
                {t("import.withColumns")}
              </Button>
            </InlineStack>
          </BlockStack>
        ) : (
          <InlineStack>
            <Button
              variant="primary"
              disabled={!draft.file}
              loading={busy}
              onClick={() => props.onImport(null)}
            >
              {t("import.submit")}
            </Button>
          </InlineStack>
        )}
      </BlockStack>
    </Card>
  );
}

export function DifferencesCard(props: {
  data: CashPageData;
  onChoose: (statementId: string) => void;
}) {
  const { t } = useTranslation("cash");
  const language = useLanguage();
  const { data } = props;
  const money = (amount: string | null) => (amount === null ? "—" : formatKwd(amount, language));
  const smDown = useSmallScreen();
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("differences.title")}
        </Text>
        {data.settlements.length > 1 ? (
          <Select
            label={t("differences.statement")}
            options={data.settlements.map((s) => ({
              label: `${formatDate(s.receivedOn, language)} · ${s.byHand ? t("statements.byHand") : (s.reference ?? "")} · ${money(s.paid)}`,
              value: s.id,
            }))}
            value={data.chosen ?? ""}
            onChange={props.onChoose}
          />
        ) : null}
        {data.differences.length === 0 ? (
          <Text as="p" tone="subdued">
            {data.settlements.length ? t("differences.none") : t("differences.noStatement")}
          </Text>
        ) : smDown ? (
          <DifferencesList differences={data.differences} money={money} />
        ) : (
          <DataTable
            columnContentTypes={["text", "text", "text", "numeric", "numeric"]}
            headings={[
              t("differences.columns.what"),
              t("differences.columns.order"),
              t("differences.columns.courierOrder"),
              t("differences.columns.statement"),
              t("differences.columns.expected"),
            ]}
            rows={data.differences.map((d, i) => [
              // What differs, and under it what to do about it.
              <div key={`w${i}`} style={{ whiteSpace: "normal", minWidth: 160, maxWidth: 280 }}>
                <Text as="p">
                  {d.line
                    ? t("differences.onLine", {
                        what: t(`differences.kinds.${d.kind}`),
                        line: d.line,
                      })
                    : t(`differences.kinds.${d.kind}`)}
                </Text>
                <Text as="p" tone="subdued" variant="bodySm">
                  {t(`differences.todo.${d.kind}`)}
                </Text>
              </div>,
              d.deliveryId ? (
                <RemixLink key={`o${i}`} to={`/app/deliveries/${d.deliveryId}`}>
                  <Data>{d.order ?? t("differences.openDelivery")}</Data>
                </RemixLink>
              ) : (
                <Data key={`o${i}`}>{d.order ?? "—"}</Data>
              ),
              <Data key={`c${i}`}>{d.courierOrderNumber}</Data>,
              money(d.statement),
              money(d.expected),
            ])}
          />
        )}
      </BlockStack>
    </Card>
  );
}

export function DaysCard({ days }: { days: CashPageData["days"] }) {
  const { t } = useTranslation("cash");
  const language = useLanguage();
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("days.title")}
        </Text>
        {days.length === 0 ? (
          <Text as="p" tone="subdued">
            {t("days.none")}
          </Text>
        ) : (
          <DataTable
            columnContentTypes={["text", "numeric", "numeric", "numeric"]}
            headings={[t("days.day"), t("days.orders"), t("days.collected"), t("days.settled")]}
            rows={days.map((d) => [
              formatDate(d.day, language),
              formatNumber(d.deliveries, language),
              formatKwd(d.collected, language),
              formatKwd(d.settled, language),
            ])}
          />
        )}
      </BlockStack>
    </Card>
  );
}

export function StatementsCard({ settlements }: { settlements: CashPageData["settlements"] }) {
  const { t } = useTranslation("cash");
  const language = useLanguage();
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("statements.title")}
        </Text>
        {settlements.length === 0 ? (
          <Text as="p" tone="subdued">
            {t("statements.none")}
          </Text>
        ) : (
          <List>
            {settlements.slice(0, 12).map((s) => (
              <List.Item key={s.id}>
                {formatDate(s.receivedOn, language)}{" "}
                {t("statements.line", {
                  paid: formatKwd(s.paid, language),
                  n: s.lines,
                })}
                {s.differences ? ` ${t("statements.differences", { n: s.differences })}` : ""}{" "}
                {s.byHand ? (
                  t("statements.byHand")
                ) : s.reference ? (
                  <Data>{s.reference}</Data>
                ) : null}
              </List.Item>
            ))}
          </List>
        )}
      </BlockStack>
    </Card>
  );
}

export function MarkPaidCard(props: {
  unpaidOrders: number;
  markPaidWhen: CashPageData["markPaidWhen"];
  busy: boolean;
  onMarkPaid: () => void;
}) {
  const { t } = useTranslation("cash");
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("markPaid.title")}
        </Text>
        <Text as="p">
          {props.unpaidOrders
            ? t("markPaid.waiting", { n: props.unpaidOrders })
            : t("markPaid.allDone")}
        </Text>
        <InlineStack>
          <Button
            disabled={props.unpaidOrders === 0}
            loading={props.busy}
            onClick={props.onMarkPaid}
          >
            {t("markPaid.button")}
          </Button>
        </InlineStack>
        <Text as="p" tone="subdued">
          {t(`markPaid.when.${props.markPaidWhen}`)}{" "}
          <Link url="/app/settings">{t("markPaid.change")}</Link>
        </Text>
      </BlockStack>
    </Card>
  );
}

export function ManualStatementCard(props: { busy: boolean; onRecord: (lines: string) => void }) {
  const { t } = useTranslation("cash");
  const [lines, setLines] = useState("");
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("manual.title")}
        </Text>
        <TextField
          label={t("manual.label")}
          helpText={
            <>
              {t("manual.help")} <Data>KW100001, 36.500</Data>
            </>
          }
          value={lines}
          onChange={setLines}
          multiline={5}
          autoComplete="off"
        />
        <InlineStack>
          <Button
            disabled={lines.trim() === ""}
            loading={props.busy}
            onClick={() => props.onRecord(lines)}
          >
            {t("manual.submit")}
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
