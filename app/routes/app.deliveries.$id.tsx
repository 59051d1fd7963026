import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { notice, type Notice } from "../domain/notices";
import { Badge, BlockStack, Box, InlineGrid, Page } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { stateTone } from "../components/delivery-state";
import { CourierCard } from "../components/deliveries/courier-card";
import { CourierExceptionsCard } from "../components/deliveries/courier-exceptions-card";
import { CustomerAnswerCard } from "../components/deliveries/customer-answer-card";
import { AddressCard, CustomerCard, ParcelCard } from "../components/deliveries/delivery-details";
import {
  ActionOutcome,
  CancelRequested,
  StateBanner,
  WaitingLong,
} from "../components/deliveries/delivery-state-banner";
import { DeliveryTimeline } from "../components/deliveries/delivery-timeline";
import { TechnicalDetails } from "../components/deliveries/technical-details";
import { deliveryPage } from "../pages/delivery.server";
import { CancelDelivery } from "../components/deliveries/cancel-dialog";
import { markDeliveryCreated } from "../actions/mark-created.server";
import { retryDelivery } from "../actions/retry.server";
import { sendAgainWithAnswer } from "../actions/send-again-with-answer.server";
import { SecondChanceCard } from "../components/deliveries/second-chance-card";
import { WhatsAppMessagesCard } from "../components/deliveries/whatsapp-messages-card";
import { listDeliveryMessages } from "../models/shopper-message-status.server";
import { authenticate } from "../shopify.server";

/**
 * A delivery's page in words: why it waits and what to do, the customer, the address as placed
 * and how sure the match was, the parcel and payment, the courier, the timeline; the raw request
 * only under "Technical details". Its data is pages/delivery.server.ts, its cards
 * components/deliveries/. The side column takes further cards (one line each).
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const page = await deliveryPage(session.shop, params.id ?? "");
  if (!page) throw new Response("No such delivery in this shop.", { status: 404 });
  return { ...page, whatsAppMessages: await listDeliveryMessages(session.shop, params.id ?? "") };
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const form = Object.fromEntries(await request.formData());
  const id = params.id ?? "";
  // Cancelling has its own route (the cancel dialog, app.deliveries.$id.cancel.ts); a form
  // that names no move here is refused rather than taken for "Send again".
  const outcome =
    form.intent === "retry"
      ? await retryDelivery(session.shop, admin, id)
      : form.intent === "mark_created"
        ? await markDeliveryCreated(session.shop, id, form)
        : form.intent === "send_again_with_answer"
          ? await sendAgainWithAnswer(session.shop, id, { admin })
          : { ok: false as const, error: notice("invalid_form") };
  return Response.json(outcome, { status: outcome.ok ? 200 : 400 });
};

export default function DeliveryPage() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<{ ok: boolean; error?: Notice; message?: Notice }>();
  const { t } = useTranslation(["delivery", "common"]);
  const { delivery } = page;
  return (
    <Page
      title={
        delivery.orderName
          ? t("delivery:title", { order: delivery.orderName })
          : t("delivery:titleNoOrder")
      }
      backAction={{ content: t("delivery:backToList"), url: "/app/deliveries" }}
      titleMetadata={
        // The list's badge for the same state, the same tone (components/delivery-state.ts).
        <span data-state-badge>
          <Badge tone={stateTone(delivery.state)}>{t(`common:states.${delivery.state}`)}</Badge>
        </span>
      }
      secondaryActions={[
        ...(delivery.labelPath
          ? [{ content: t("delivery:printLabel"), url: delivery.labelPath }]
          : []),
        { content: t("delivery:openOrder"), url: delivery.orderAdminPath, target: "_top" },
      ]}
    >
      <BlockStack gap="400">
        <ActionOutcome result={result} />
        <CancelRequested at={delivery.cancelRequestedAt} state={delivery.state} />
        <StateBanner delivery={delivery} reason={page.reason} />
        <WaitingLong waiting={page.waitingLong} />
        <Box paddingInline={{ xs: "400", sm: "0" }}>
          <CancelDelivery id={delivery.id} orderName={delivery.orderName} choices={page.cancel} />
        </Box>
        <InlineGrid columns={{ xs: 1, md: "2fr 1fr" }} gap="400" alignItems="start">
          <BlockStack gap="400">
            <SecondChanceCard secondChance={page.secondChance} />
            <CustomerCard customer={page.customer} erased={delivery.erased} />
            <CustomerAnswerCard ask={page.customerAnswer} />
            <AddressCard address={page.address} match={page.match} />
            <ParcelCard parcel={page.parcel} payment={page.payment} />
            <DeliveryTimeline events={page.events} />
            <WhatsAppMessagesCard messages={page.whatsAppMessages} />
          </BlockStack>
          <BlockStack gap="400">
            <CourierCard courier={page.courier} />
            <CourierExceptionsCard exceptions={page.exceptions} />
          </BlockStack>
        </InlineGrid>
        <TechnicalDetails technical={page.technical} />
      </BlockStack>
    </Page>
  );
}
