import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { BlockStack, InlineGrid, Page } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  CashOutcome,
  CashTotals,
  DaysCard,
  DifferencesCard,
  ImportStatementCard,
  ManualStatementCard,
  MarkPaidCard,
  StatementsCard,
  type StatementDraft,
} from "../components/cash/cash-sections";
import { useCsvDownload } from "../components/csv-download";
import { cashPageAction, loadCashPage, type CashActionResult } from "../pages/cash.server";
import { useLanguage } from "../i18n/language";
import { authenticate } from "../shopify.server";

/**
 * Cash on delivery (issue 16, ADRs 0035–0037): totals, per day, statements and their
 * differences, import or record a statement, mark settled orders paid. Its data and actions are
 * app/pages/cash.server.ts; its cards app/components/cash/.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return loadCashPage(session.shop, new URL(request.url).searchParams);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const result = await cashPageAction(session.shop, admin, await request.formData());
  return Response.json(result, { status: result.intent === "unknown" ? 400 : 200 });
};

export default function Cash() {
  const { t } = useTranslation("cash");
  const language = useLanguage();
  const data = useLoaderData<typeof loader>();
  const result = useActionData<CashActionResult>();
  const submit = useSubmit();
  const busy = useNavigation().state !== "idle";
  const { download, busy: downloading } = useCsvDownload();
  const [draft, setDraft] = useState<StatementDraft>({
    file: null,
    reference: "",
    receivedOn: data.today,
  });
  const mapping = result && "kind" in result && result.kind === "mapping" ? result : null;

  const send = (fields: Record<string, string | Blob>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    submit(form, { method: "post", encType: "multipart/form-data" });
  };
  const exportLedger = async () => {
    const ok = await download(
      `/app/exports/cash?lang=${language}`,
      `cash-on-delivery-${data.today}.csv`,
    );
    if (!ok) shopify.toast.show(t("exportFailed"), { isError: true });
  };

  return (
    <Page
      title={t("title")}
      subtitle={t("subtitle")}
      secondaryActions={[
        { content: t("export"), loading: downloading, onAction: () => void exportLedger() },
      ]}
    >
      <BlockStack gap="400">
        {result ? <CashOutcome result={result} /> : null}
        <CashTotals totals={data.totals} />
        <InlineGrid columns={{ xs: 1, lg: ["twoThirds", "oneThird"] }} gap="400">
          <BlockStack gap="400">
            <ImportStatementCard
              draft={draft}
              setDraft={setDraft}
              mapping={mapping}
              busy={busy}
              onImport={(columns) => {
                if (!draft.file) return;
                send({
                  intent: "import",
                  file: draft.file,
                  reference: draft.reference,
                  receivedOn: draft.receivedOn,
                  ...(columns ?? {}),
                });
              }}
            />
            <DifferencesCard
              data={data}
              onChoose={(id) => submit({ statement: id }, { method: "get" })}
            />
            <DaysCard days={data.days} />
          </BlockStack>
          <BlockStack gap="400">
            <StatementsCard settlements={data.settlements} />
            <MarkPaidCard
              unpaidOrders={data.unpaidOrders}
              markPaidWhen={data.markPaidWhen}
              busy={busy}
              onMarkPaid={() => send({ intent: "markPaid" })}
            />
            <ManualStatementCard
              busy={busy}
              onRecord={(lines) =>
                send({
                  intent: "manual",
                  lines,
                  reference: draft.reference,
                  receivedOn: draft.receivedOn,
                })
              }
            />
          </BlockStack>
        </InlineGrid>
      </BlockStack>
    </Page>
  );
}
