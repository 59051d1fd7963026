import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
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
import { useLanguage } from "../i18n/language";
import { translateMessage } from "../i18n/messages";
import { areaName, cityName, governorateName } from "../i18n/place-names";
import { pickupLocationsPage, savePickupLocation } from "../pages/pickup-locations.server";
import type { PickupFormValues } from "../services/pickup-mapping";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  return pickupLocationsPage(session.shop, admin);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return savePickupLocation(session.shop, Object.fromEntries(await request.formData()));
};

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type ActionData = { ok: boolean; locationId?: string; errors: Record<string, string> };

export default function PickupLocations() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("pickup");
  const result = useActionData<ActionData>();
  return (
    <Page
      title={t("title")}
      backAction={{ url: "/app/settings", content: t("common:nav.settings") }}
    >
      <BlockStack gap="400">
        {!data.connected && (
          <Banner tone="warning" title={t("notConnectedTitle")}>
            {t("notConnected")}
          </Banner>
        )}
        {data.connected && data.locations.length === 0 && (
          <Banner tone="info">{t("noLocations")}</Banner>
        )}
        {data.locations.map((location) => (
          <LocationCard
            key={location.id}
            location={location}
            governances={data.governances}
            areas={data.areas}
            result={result?.locationId === location.id ? result : undefined}
          />
        ))}
      </BlockStack>
    </Page>
  );
}

function LocationCard(props: {
  location: LoaderData["locations"][number];
  governances: LoaderData["governances"];
  areas: LoaderData["areas"];
  result?: ActionData;
}) {
  const { location, governances, areas, result } = props;
  const navigation = useNavigation();
  const submitting =
    navigation.state !== "idle" && navigation.formData?.get("locationId") === location.id;
  const [values, setValues] = useState(location.values);
  const set = (field: keyof PickupFormValues) => (value: string) =>
    setValues((v) => ({ ...v, [field]: value }));
  const { t } = useTranslation("pickup");
  const language = useLanguage();
  // The street as written; the city and the governorate (not its code) in the page's language.
  const addressText = [
    ...location.addressLines,
    location.city ? cityName(location.city, language) : null,
    location.provinceCode ? governorateName(location.provinceCode, language) : null,
  ]
    .filter(Boolean)
    .join(language === "ar" ? "، " : ", ");
  const errors = Object.fromEntries(
    Object.entries(result?.errors ?? {}).map(([field, message]) => [
      field,
      translateMessage(t, message),
    ]),
  );
  // Names in the page's language, sorted as its readers would look for them.
  const areaOptions = areas
    .filter((a) => a.governanceId === Number(values.governanceId))
    .map((a) => ({ label: areaName(a.name, language), value: String(a.id) }))
    .sort((a, b) => a.label.localeCompare(b.label, language));

  return (
    <Card>
      <Form method="post">
        <input type="hidden" name="locationId" value={location.id} />
        <input type="hidden" name="name" value={location.name} />
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd">
              <bdi translate="no">{location.name}</bdi>
            </Text>
            {location.confirmedAt ? (
              <Badge tone="success">{t("confirmed")}</Badge>
            ) : (
              <Badge tone="attention">{t("notConfirmed")}</Badge>
            )}
          </InlineStack>
          <Text as="p" tone="subdued">
            {addressText ? (
              <span dir="auto" translate="no">
                {addressText}
              </span>
            ) : (
              t("noAddress")
            )}
          </Text>
          {location.pin ? (
            <Text as="p">
              <Link
                url={`https://maps.google.com/?q=${location.pin.latitude},${location.pin.longitude}`}
                target="_blank"
              >
                {t("checkPin")}
              </Link>{" "}
              <Text as="span" tone="subdued">
                {t("checkPinHelp")}
              </Text>
            </Text>
          ) : (
            <Text as="p" tone="subdued">
              {t("noPin")}
            </Text>
          )}
          {result?.ok && <Banner tone="success">{t("saved")}</Banner>}
          {errors.form && <Banner tone="critical">{errors.form}</Banner>}
          {!location.confirmedAt && (
            <Text as="p" tone={location.proposalConfident ? "subdued" : "caution"}>
              {location.proposalConfident ? t("proposed") : t("proposedUnsure")}
            </Text>
          )}
          <FormLayout>
            <FormLayout.Group>
              <Select
                label={t("governorate")}
                name="governanceId"
                options={[
                  { label: t("choose"), value: "" },
                  ...governances.map((g) => ({
                    label: governorateName(g.name, language),
                    value: String(g.id),
                  })),
                ]}
                value={values.governanceId === null ? "" : String(values.governanceId)}
                onChange={(value) =>
                  setValues((v) => ({
                    ...v,
                    governanceId: value ? Number(value) : null,
                    areaId: null,
                  }))
                }
                error={errors.governanceId}
              />
              <Select
                label={t("area")}
                name="areaId"
                options={[{ label: t("choose"), value: "" }, ...areaOptions]}
                value={values.areaId === null ? "" : String(values.areaId)}
                onChange={(value) =>
                  setValues((v) => ({ ...v, areaId: value ? Number(value) : null }))
                }
                error={errors.areaId}
              />
            </FormLayout.Group>
            <FormLayout.Group condensed>
              <TextField
                label={t("block")}
                name="block"
                value={values.block}
                onChange={set("block")}
                autoComplete="off"
                error={errors.block}
              />
              <TextField
                label={t("street")}
                name="street"
                value={values.street}
                onChange={set("street")}
                autoComplete="off"
                error={errors.street}
              />
              <TextField
                label={t("avenue")}
                name="avenue"
                value={values.avenue}
                onChange={set("avenue")}
                autoComplete="off"
                error={errors.avenue}
              />
            </FormLayout.Group>
            <FormLayout.Group condensed>
              <TextField
                label={t("building")}
                name="building"
                value={values.building}
                onChange={set("building")}
                autoComplete="off"
                error={errors.building}
              />
              <TextField
                label={t("floor")}
                name="floor"
                value={values.floor}
                onChange={set("floor")}
                autoComplete="off"
                error={errors.floor}
              />
            </FormLayout.Group>
            <FormLayout.Group>
              <TextField
                label={t("contactName")}
                name="contactName"
                value={values.contactName}
                onChange={set("contactName")}
                autoComplete="off"
                error={errors.contactName}
              />
              <TextField
                label={t("contactPhone")}
                name="contactPhone"
                type="tel"
                value={values.contactPhone}
                onChange={set("contactPhone")}
                autoComplete="off"
                error={errors.contactPhone}
              />
            </FormLayout.Group>
          </FormLayout>
          <div>
            <Button submit variant="primary" loading={submitting}>
              {t("confirm")}
            </Button>
          </div>
        </BlockStack>
      </Form>
    </Card>
  );
}
