import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Card, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { CorrectionForm, CorrectionOutcome } from "../components/deliveries/correction-form";
import { correctAndResend, type CorrectionOutcome as Outcome } from "../actions/fix.server";
import { correctionPage } from "../pages/fix.server";
import { authenticate } from "../shopify.server";

/**
 * "Fix and send again" (pages/fix.server.ts, actions/fix.server.ts): a rejected delivery, or one waiting for its
 * address or the merchant's decision, corrected in place and sent again. Another shop's delivery
 * is not found.
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const page = await correctionPage(session.shop, params.id ?? "");
  if (!page) throw new Response("No such delivery in this shop.", { status: 404 });
  return page;
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const form = Object.fromEntries(await request.formData());
  const outcome = await correctAndResend(session.shop, admin, params.id ?? "", form);
  if (!outcome) throw new Response("No such delivery in this shop.", { status: 404 });
  return Response.json(outcome, { status: outcome.ok ? 200 : 400 });
};

export default function FixDelivery() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<Outcome>();
  const { t } = useTranslation("delivery");
  const title = t("fix.title", { order: page.orderName ?? t("order") });
  const values = result && !result.ok ? result.values : page.values;
  return (
    <Page
      title={title}
      backAction={{ content: t("fix.cancel"), url: `/app/deliveries/${page.id}` }}
    >
      <BlockStack gap="400">
        {result && <CorrectionOutcome deliveryId={page.id} result={result} />}
        {!page.fixable && !result?.ok && <Banner tone="warning">{t("fix.notFixable")}</Banner>}
        {page.fixable && !result?.ok && (
          <>
            {page.unknownOutcome && <Banner tone="info">{t("fix.unknownOutcome")}</Banner>}
            <Card>
              <BlockStack gap="200">
                <Text as="p">{t("fix.intro")}</Text>
                {page.missing && (
                  <Text as="p" tone="critical">
                    {t(`fix.missing.${page.missing}`)}
                  </Text>
                )}
                {page.typed && (
                  <Text as="p" breakWord>
                    {t("fix.typed")}{" "}
                    <strong>
                      <bdi translate="no">{page.typed}</bdi>
                    </strong>
                  </Text>
                )}
              </BlockStack>
            </Card>
            <CorrectionForm
              // A refused submission starts the form again from what was typed.
              key={result ? JSON.stringify(values) : "loaded"}
              deliveryId={page.id}
              areas={page.areas}
              remember={page.remember}
              values={values}
              // Before a submission, the fields the courier refused; after one, the form's own.
              fieldErrors={result && !result.ok ? result.fieldErrors : page.refused}
            />
          </>
        )}
      </BlockStack>
    </Page>
  );
}
