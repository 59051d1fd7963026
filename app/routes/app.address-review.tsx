import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  EmptyState,
  FormLayout,
  InlineStack,
  Link,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSentence, withData } from "../components/deliveries/sentence";
import { useLanguage } from "../i18n/language";
import { reasonOnPage } from "../i18n/messages";
import type { Notice } from "../domain/notices";
import { useNotice } from "../components/notice";
import { areaName, governorateName } from "../i18n/place-names";
import { findGovernorate } from "../addresses";
import { PhoneLink } from "../components/phone-link";
import { fixDeliveryAddress } from "../actions/review.server";
import { addressReviewPage } from "../pages/address-review.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return addressReviewPage(session.shop);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const form = Object.fromEntries(await request.formData());
  const outcome = await fixDeliveryAddress(session.shop, admin, form);
  return Response.json(
    { ...outcome, deliveryId: form.deliveryId },
    { status: outcome.ok ? 200 : 400 },
  );
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

export default function AddressReview() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<{
    ok: boolean;
    error?: Notice;
    deliveryId?: string;
    notRemembered?: Notice;
  }>();
  const { t } = useTranslation("review");
  const say = useNotice();
  return (
    <Page title={t("title")}>
      <BlockStack gap="400">
        {result?.ok && <Banner tone="success">{t("placed")}</Banner>}
        {result?.ok && result.notRemembered && (
          <Banner tone="warning" title={t("notRemembered")}>
            <span dir="auto">{say(result.notRemembered)}</span>
          </Banner>
        )}
        {data.queue.length === 0 ? (
          <Card>
            <EmptyState heading={t("emptyTitle")} image="">
              <p>{t("empty")}</p>
            </EmptyState>
          </Card>
        ) : (
          data.queue.map((item) => (
            <ReviewCard
              key={item.id}
              item={item}
              governances={data.governances}
              areas={data.areas}
              error={result?.deliveryId === item.id ? result.error : undefined}
            />
          ))
        )}
      </BlockStack>
    </Page>
  );
}

function ReviewCard(props: {
  item: Data["queue"][number];
  governances: Data["governances"];
  areas: Data["areas"];
  error?: Notice;
}) {
  const { item, governances, areas } = props;
  const say = useNotice();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("deliveryId") === item.id;
  const [governanceId, setGovernanceId] = useState(
    item.courier ? String(item.courier.governanceId) : "",
  );
  const [areaId, setAreaId] = useState(item.courier ? String(item.courier.areaId) : "");
  const [parts, setParts] = useState({
    block: item.parts.block ?? "",
    street: item.parts.street ?? "",
    avenue: item.parts.avenue ?? "",
    house: item.parts.house ?? "",
    building: item.parts.building ?? "",
    floor: item.parts.floor ?? "",
    apartment: item.parts.apartment ?? "",
  });
  const [remember, setRemember] = useState(item.remember.possible);
  const { t, i18n } = useTranslation("review");
  const language = useLanguage();
  const sentence = useSentence();
  // Every card of the queue waits for its address (listDeliveriesInState("needs_address")).
  const reason = (text: string | null) =>
    reasonOnPage(t, (key) => i18n.exists(key), language, "needs_address", text);
  const part = (name: keyof typeof parts, label: string) => (
    <TextField
      label={label}
      name={name}
      value={parts[name]}
      onChange={(v) => setParts((p) => ({ ...p, [name]: v }))}
      autoComplete="off"
      // The courier refuses an address without a block (ADR 0052).
      requiredIndicator={name === "block"}
    />
  );
  const provinceArea = item.provinceCode ? findGovernorate(item.provinceCode) : undefined;
  const province = provinceArea
    ? language === "ar"
      ? provinceArea.nameAr
      : provinceArea.nameEn
    : null;
  return (
    <Card>
      <Form method="post">
        <input type="hidden" name="deliveryId" value={item.id} />
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center" align="space-between">
            <Text as="h2" variant="headingMd">
              <bdi translate="no">{item.orderName ?? t("order")}</bdi>
            </Text>
            <Link url={`/app/deliveries/${item.id}`}>{t("openDelivery")}</Link>
          </InlineStack>
          <Text as="p">
            {t("typed")}{" "}
            <strong dir="auto" translate="no">
              {item.typed || t("noAddress")}
            </strong>
            {province && (
              <>
                {" · "}
                {t("province", { governorate: province })}
              </>
            )}
          </Text>
          {item.phone && (
            <Text as="p">
              {t("callCustomer")} <PhoneLink phone={item.phone} />
            </Text>
          )}
          {item.doubt ? (
            <Text as="p">{sentence(item.doubt)}</Text>
          ) : (
            reason(item.reason) && (
              <Text as="p" tone="subdued">
                <span dir="auto">{reason(item.reason)}</span>
              </Text>
            )
          )}
          {item.missing && (
            <Text as="p" tone="critical">
              {t(`missing.${item.missing}`)}
            </Text>
          )}
          {item.unreadable && (
            <Text as="p" tone="subdued">
              {t("unreadable")}
            </Text>
          )}
          {item.suggestion && (
            <Text as="p">{t("suggestion", { area: areaName(item.suggestion, language) })}</Text>
          )}
          {props.error && (
            <Banner tone="critical">
              <span dir="auto">{say(props.error)}</span>
            </Banner>
          )}
          <FormLayout>
            <FormLayout.Group>
              <Select
                label={t("pickup:governorate")}
                name="governanceId"
                value={governanceId}
                onChange={(value) => {
                  setGovernanceId(value);
                  setAreaId("");
                }}
                options={[
                  { label: t("pickup:choose"), value: "" },
                  ...governances.map((g) => ({
                    label: governorateName(g.name, language),
                    value: String(g.id),
                  })),
                ]}
              />
              <Select
                label={t("pickup:area")}
                name="areaId"
                value={areaId}
                onChange={setAreaId}
                options={[
                  { label: t("pickup:choose"), value: "" },
                  ...areas
                    .filter((a) => String(a.governanceId) === governanceId)
                    .map((a) => ({ label: areaName(a.name, language), value: String(a.id) }))
                    .sort((a, b) => a.label.localeCompare(b.label, language)),
                ]}
              />
            </FormLayout.Group>
            <FormLayout.Group condensed>
              {part("block", t("pickup:block"))}
              {part("street", t("pickup:street"))}
              {part("avenue", t("pickup:avenue"))}
              {part("house", t("house"))}
            </FormLayout.Group>
            <FormLayout.Group condensed>
              {part("building", t("pickup:building"))}
              {part("floor", t("pickup:floor"))}
              {part("apartment", t("apartment"))}
            </FormLayout.Group>
          </FormLayout>
          {item.remember.possible ? (
            <BlockStack gap="100">
              <Checkbox
                label={withData(t("delivery:fix.remember", { spelling: "\u0001spelling\u0001" }), {
                  spelling: item.remember.spelling,
                })}
                name="remember"
                checked={remember}
                onChange={setRemember}
              />
              <Text as="p" tone="subdued">
                <span data-remember-sentence>
                  {remember ? t("rememberBefore") : t("delivery:fix.rememberNo")}
                </span>
              </Text>
            </BlockStack>
          ) : (
            <Text as="p" tone="subdued">
              <span data-remember-sentence>
                {t(
                  item.remember.why === "no_address"
                    ? "delivery:fix.rememberNoAddress"
                    : "delivery:fix.rememberNoPlace",
                )}
              </span>
            </Text>
          )}
          <div>
            <Button submit variant="primary" loading={busy} disabled={!areaId}>
              {t("send")}
            </Button>
          </div>
        </BlockStack>
      </Form>
    </Card>
  );
}
