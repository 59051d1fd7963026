import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  DropZone,
  InlineGrid,
  InlineStack,
  Layout,
  List,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import {
  listSettlements,
  setMarkPaidWhen,
  settledUnpaidOrders,
  settlementDifferences,
  shopMarkPaidWhen,
} from "../models/cash-ledger.server";
import { displayKwd } from "../money/kwd";
import {
  importStatement,
  markSettledOrdersPaid,
  recordStatementByHand,
  cashDeliveries,
  type ImportOutcome,
} from "../services/settlements.server";
import { FIELD_LABELS, ledgerByDay, ledgerTotals } from "../settlements";
import { authenticate } from "../shopify.server";

const DIFFERENCE_WORDS: Record<string, string> = {
  amount_differs: "Amount not equal",
  unknown_order: "Order the app does not know",
  missing_from_statement: "Delivered, missing from the statement",
  not_delivered: "On the statement, not delivered",
  already_settled: "Already paid on an earlier statement",
};

const today = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shop = session.shop;
  const url = new URL(request.url);
  const [deliveries, settlements, unpaid, markPaidWhen] = await Promise.all([
    cashDeliveries(shop),
    listSettlements(shop),
    settledUnpaidOrders(shop),
    shopMarkPaidWhen(shop),
  ]);
  const chosen = url.searchParams.get("statement") ?? settlements[0]?.id ?? null;
  const differences = chosen ? await settlementDifferences(shop, chosen) : [];
  const totals = ledgerTotals(deliveries);
  return {
    totals: {
      toCollect: displayKwd(totals.toCollect),
      collected: displayKwd(totals.collected),
      settled: displayKwd(totals.settled),
    },
    days: ledgerByDay(deliveries)
      .slice(0, 31)
      .map((d) => ({
        day: d.day,
        deliveries: d.deliveries,
        collected: displayKwd(d.collected),
        settled: displayKwd(d.settled),
      })),
    settlements: settlements.map((s) => ({
      id: s.id,
      receivedOn: s.receivedOn,
      reference: s.reference ?? s.fileName ?? (s.source === "manual" ? "Recorded by hand" : ""),
      lines: s.lineCount,
      paid: displayKwd(s.statement),
      expected: displayKwd(s.expected),
      differences: s.differences,
    })),
    chosen,
    differences: differences.map((d) => ({
      kind: DIFFERENCE_WORDS[d.kind] ?? d.kind,
      line: d.line,
      order: d.orderName ?? "",
      courierOrderNumber: d.courierOrderNumber,
      statement: d.statementAmount === null ? "—" : displayKwd(d.statementAmount),
      expected: d.expectedAmount === null ? "—" : displayKwd(d.expectedAmount),
    })),
    unpaidOrders: unpaid.length,
    markPaidWhen,
  };
};

const columnsInput = z.object({
  orderNumber: z.string().min(1),
  amount: z.string().min(1),
  date: z
    .string()
    .optional()
    .transform((v) => v || null),
});

export type CashActionResult =
  | (ImportOutcome & { intent: "import" | "manual" })
  | {
      intent: "markPaid";
      paid: number;
      alreadyPaid: number;
      failed: { orderName: string | null; message: string }[];
    }
  | { intent: "setting"; saved: true };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const receivedOn = /^\d{4}-\d{2}-\d{2}$/.test(String(form.get("receivedOn")))
    ? String(form.get("receivedOn"))
    : today();
  const reference =
    String(form.get("reference") ?? "")
      .trim()
      .slice(0, 100) || null;
  if (intent === "import") {
    const file = form.get("file");
    if (!(file instanceof Blob) || file.size === 0)
      return Response.json({
        intent,
        kind: "refused",
        message: "Choose the statement file first.",
      });
    const columns = form.get("orderNumber")
      ? columnsInput.safeParse({
          orderNumber: form.get("orderNumber"),
          amount: form.get("amount"),
          date: form.get("date") ?? undefined,
        })
      : null;
    if (columns && !columns.success)
      return Response.json({
        intent,
        kind: "refused",
        message: "Choose the order number and amount columns.",
      });
    const outcome = await importStatement({
      shop: session.shop,
      file: new Uint8Array(await file.arrayBuffer()),
      fileName: file instanceof File ? file.name : "statement",
      reference,
      receivedOn,
      columns: columns?.data,
    });
    return Response.json({ intent, ...outcome });
  }
  if (intent === "manual") {
    const outcome = await recordStatementByHand({
      shop: session.shop,
      text: String(form.get("lines") ?? "").slice(0, 200_000),
      reference,
      receivedOn,
    });
    return Response.json({ intent, ...outcome });
  }
  if (intent === "markPaid") {
    return Response.json({ intent, ...(await markSettledOrdersPaid(session.shop, admin)) });
  }
  if (intent === "setting") {
    const when = z.enum(["delivered", "settled", "never"]).safeParse(form.get("markPaidWhen"));
    if (when.success) await setMarkPaidWhen(session.shop, when.data);
    return Response.json({ intent, saved: true });
  }
  return Response.json({ intent, kind: "refused", message: "Unknown action." }, { status: 400 });
};

function Outcome({ result }: { result: CashActionResult }) {
  if (result.intent === "setting") return <Banner tone="success">Saved.</Banner>;
  if (result.intent === "markPaid")
    return (
      <Banner tone={result.failed.length ? "warning" : "success"} title="Marking orders paid">
        <p>
          {result.paid} marked paid in Shopify, {result.alreadyPaid} already paid.
          {result.failed.length ? ` ${result.failed.length} could not be marked:` : ""}
        </p>
        {result.failed.length ? (
          <List>
            {result.failed.map((f, i) => (
              <List.Item key={i}>{`${f.orderName ?? "An order"}: ${f.message}`}</List.Item>
            ))}
          </List>
        ) : null}
      </Banner>
    );
  if (result.kind === "mapping") return null;
  const problems = result.problems ?? [];
  return (
    <Banner
      tone={result.kind === "refused" ? "critical" : problems.length ? "warning" : "success"}
      title={
        result.kind === "refused"
          ? result.message
          : `Statement saved: ${result.lines} lines, ${result.settled} orders settled, ${result.differences} differences.`
      }
    >
      {problems.length ? (
        <BlockStack gap="100">
          <p>These lines were not taken; the others were. Correct them and record them again:</p>
          <List>
            {problems.slice(0, 50).map((p) => (
              <List.Item key={p.line}>{`Line ${p.line}: ${p.problem}`}</List.Item>
            ))}
          </List>
          {problems.length > 50 ? <p>…and {problems.length - 50} more.</p> : null}
        </BlockStack>
      ) : null}
    </Banner>
  );
}

export default function Cash() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<CashActionResult>();
  const submit = useSubmit();
  const busy = useNavigation().state !== "idle";
  const [file, setFile] = useState<File | null>(null);
  const [reference, setReference] = useState("");
  const [receivedOn, setReceivedOn] = useState(today());
  const [manual, setManual] = useState("");
  const [columns, setColumns] = useState<Record<string, string>>({});
  const mapping = result && "kind" in result && result.kind === "mapping" ? result : null;

  const send = (fields: Record<string, string | Blob>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    submit(form, { method: "post", encType: "multipart/form-data" });
  };
  const importFile = (withColumns: boolean) => {
    if (!file) return;
    send({
      intent: "import",
      file,
      reference,
      receivedOn,
      ...(withColumns
        ? {
            orderNumber: columns.orderNumber ?? mapping?.guess.orderNumber ?? "",
            amount: columns.amount ?? mapping?.guess.amount ?? "",
            date: columns.date ?? mapping?.guess.date ?? "",
          }
        : {}),
    });
  };
  const download = async () => {
    const response = await fetch("/app/exports/cash");
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = `cash-on-delivery-${today()}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  return (
    <Page
      title="Cash on delivery"
      subtitle="What the courier's drivers collect for you, and what the courier has paid."
      secondaryActions={[{ content: "Download as CSV", onAction: () => void download() }]}
    >
      <BlockStack gap="400">
        {result ? <Outcome result={result} /> : null}
        <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
          {(
            [
              ["To collect", data.totals.toCollect, "On the way to customers"],
              [
                "Collected, not yet paid to you",
                data.totals.collected,
                "Delivered; no statement yet",
              ],
              ["Paid by the courier", data.totals.settled, "On a statement"],
            ] as const
          ).map(([label, amount, note]) => (
            <Card key={label}>
              <BlockStack gap="100">
                <Text as="h2" variant="headingSm">
                  {label}
                </Text>
                <Text as="p" variant="headingLg">
                  {amount}
                </Text>
                <Text as="p" tone="subdued">
                  {note}
                </Text>
              </BlockStack>
            </Card>
          ))}
        </InlineGrid>
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Import the courier&apos;s statement
                  </Text>
                  <Text as="p" tone="subdued">
                    A CSV or Excel file, in Arabic or English. Each line is matched to your
                    deliveries by the courier&apos;s order number.
                  </Text>
                  <DropZone
                    allowMultiple={false}
                    accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                    onDrop={(files) => setFile(files[0] ?? null)}
                    label="Statement file"
                  >
                    {file ? (
                      <Text as="p" alignment="center">
                        {file.name}
                      </Text>
                    ) : (
                      <DropZone.FileUpload actionHint="CSV or Excel (.xlsx)" />
                    )}
                  </DropZone>
                  <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
                    <TextField
                      label="Statement number or note"
                      value={reference}
                      onChange={setReference}
                      autoComplete="off"
                    />
                    <TextField
                      label="Money received on"
                      type="date"
                      value={receivedOn}
                      onChange={setReceivedOn}
                      autoComplete="off"
                    />
                  </InlineGrid>
                  {mapping ? (
                    <BlockStack gap="200">
                      <Banner tone="info">
                        Say which column holds what. The app remembers it for the next statement.
                      </Banner>
                      <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
                        {(["orderNumber", "amount", "date"] as const).map((field) => (
                          <Select
                            key={field}
                            label={FIELD_LABELS[field]}
                            options={[
                              {
                                label: field === "date" ? "No date column" : "Choose a column",
                                value: "",
                              },
                              ...mapping.headers.map((h) => ({ label: h, value: h })),
                            ]}
                            value={columns[field] ?? mapping.guess[field] ?? ""}
                            onChange={(value) => setColumns((c) => ({ ...c, [field]: value }))}
                          />
                        ))}
                      </InlineGrid>
                      <InlineStack>
                        <Button variant="primary" loading={busy} onClick={() => importFile(true)}>
                          Import with these columns
                        </Button>
                      </InlineStack>
                    </BlockStack>
                  ) : (
                    <InlineStack>
                      <Button
                        variant="primary"
                        disabled={!file}
                        loading={busy}
                        onClick={() => importFile(false)}
                      >
                        Import statement
                      </Button>
                    </InlineStack>
                  )}
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Differences on the statement
                  </Text>
                  {data.settlements.length > 1 ? (
                    <Select
                      label="Statement"
                      options={data.settlements.map((s) => ({
                        label: `${s.receivedOn} · ${s.reference || "statement"} · ${s.paid}`,
                        value: s.id,
                      }))}
                      value={data.chosen ?? ""}
                      onChange={(id) => submit({ statement: id }, { method: "get" })}
                    />
                  ) : null}
                  {data.differences.length === 0 ? (
                    <Text as="p" tone="subdued">
                      {data.settlements.length
                        ? "Every line agrees with your deliveries."
                        : "Import or record a statement to compare it with your deliveries."}
                    </Text>
                  ) : (
                    <DataTable
                      columnContentTypes={["text", "text", "text", "numeric", "numeric"]}
                      headings={["What differs", "Order", "Courier order", "Statement", "Expected"]}
                      rows={data.differences.map((d) => [
                        d.line ? `${d.kind} (line ${d.line})` : d.kind,
                        d.order,
                        d.courierOrderNumber,
                        d.statement,
                        d.expected,
                      ])}
                    />
                  )}
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Collected per day
                  </Text>
                  {data.days.length === 0 ? (
                    <Text as="p" tone="subdued">
                      No cash-on-delivery order has been delivered yet.
                    </Text>
                  ) : (
                    <DataTable
                      columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                      headings={["Day", "Orders", "Collected", "Paid by the courier"]}
                      rows={data.days.map((d) => [d.day, d.deliveries, d.collected, d.settled])}
                    />
                  )}
                </BlockStack>
              </Card>
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneThird">
            <BlockStack gap="400">
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Statements
                  </Text>
                  {data.settlements.length === 0 ? (
                    <Text as="p" tone="subdued">
                      None yet.
                    </Text>
                  ) : (
                    <List>
                      {data.settlements.slice(0, 12).map((s) => (
                        <List.Item key={s.id}>
                          {`${s.receivedOn}: ${s.paid} for ${s.lines} orders${s.differences ? `, ${s.differences} differences` : ""}${s.reference ? ` (${s.reference})` : ""}`}
                        </List.Item>
                      ))}
                    </List>
                  )}
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Mark paid in Shopify
                  </Text>
                  <Text as="p">
                    {data.unpaidOrders
                      ? `${data.unpaidOrders} orders the courier has paid for are not marked paid in Shopify yet.`
                      : "Every order the courier has paid for is marked paid."}
                  </Text>
                  <InlineStack>
                    <Button
                      disabled={data.unpaidOrders === 0}
                      loading={busy}
                      onClick={() => send({ intent: "markPaid" })}
                    >
                      Mark them paid
                    </Button>
                  </InlineStack>
                  <Select
                    label="Mark cash-on-delivery orders paid"
                    options={[
                      { label: "When the courier delivers them", value: "delivered" },
                      { label: "When a statement pays for them", value: "settled" },
                      { label: "Only when I press the button", value: "never" },
                    ]}
                    value={data.markPaidWhen}
                    onChange={(value) => send({ intent: "setting", markPaidWhen: value })}
                  />
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Record a statement by hand
                  </Text>
                  <TextField
                    label="One order per line: courier order number, amount"
                    value={manual}
                    onChange={setManual}
                    multiline={5}
                    placeholder={"CO-1001, 36.500\nCO-1002, 12.250"}
                    autoComplete="off"
                  />
                  <InlineStack>
                    <Button
                      disabled={manual.trim() === ""}
                      loading={busy}
                      onClick={() =>
                        send({ intent: "manual", lines: manual, reference, receivedOn })
                      }
                    >
                      Record statement
                    </Button>
                  </InlineStack>
                </BlockStack>
              </Card>
            </BlockStack>
          </Layout.Section>
        </Layout>
      </BlockStack>
    </Page>
  );
}
