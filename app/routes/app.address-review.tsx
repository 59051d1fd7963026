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
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { Unreadable } from "../deliveries/domain/json-column";
import { fixDeliveryAddress } from "../deliveries/review.server";
import { listDeliveries } from "../models/delivery-list.server";
import { getCourierAccount } from "../models/courier-account.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const account = await getCourierAccount(session.shop);
  const directory = await loadCourierDirectory(session.shop, account.environment);
  const { deliveries } = await listDeliveries({
    shop: session.shop,
    state: "needs_address",
    pageSize: 50,
  });
  return {
    governances: directory?.governances ?? [],
    areas: directory?.areas ?? [],
    queue: deliveries.map((d) => {
      // A record that no longer reads shows nothing of it but says so; the order has the address.
      const unreadable = d.addressMatch instanceof Unreadable;
      const match = d.addressMatch instanceof Unreadable ? {} : (d.addressMatch ?? {});
      return {
        id: d.id,
        orderName: d.orderName,
        reason: d.stateReason,
        typed: [
          match.input?.address1,
          match.input?.address2,
          match.input?.city,
          match.input?.provinceCode,
        ]
          .filter(Boolean)
          .join(", "),
        suggestion: match.area ?? null,
        reasons: unreadable
          ? [
              "What the app noted about this address can no longer be read: see the order in Shopify.",
            ]
          : (match.reasons ?? []),
        parts: match.parts ?? {},
        courier: match.courier ?? null,
      };
    }),
  };
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
    error?: string;
    deliveryId?: string;
    notRemembered?: string;
  }>();
  return (
    <Page title="Address review">
      <BlockStack gap="400">
        {result?.ok && (
          <Banner tone="success">Address placed; the delivery is on its way to the courier.</Banner>
        )}
        {result?.ok && result.notRemembered && (
          <Banner tone="warning">
            The spelling was not remembered: {result.notRemembered}. Later orders written this way
            will be asked about again.
          </Banner>
        )}
        {data.queue.length === 0 ? (
          <Card>
            <EmptyState heading="Nothing to review" image="">
              <p>Addresses the app cannot place with confidence wait here for you.</p>
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
  error?: string;
}) {
  const { item, governances, areas } = props;
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
  const [remember, setRemember] = useState(true);
  const part = (name: keyof typeof parts, label: string) => (
    <TextField
      label={label}
      name={name}
      value={parts[name]}
      onChange={(v) => setParts((p) => ({ ...p, [name]: v }))}
      autoComplete="off"
    />
  );
  return (
    <Card>
      <Form method="post">
        <input type="hidden" name="deliveryId" value={item.id} />
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {item.orderName ?? "Order"}
            </Text>
          </InlineStack>
          <Text as="p">
            Typed by the customer: <strong>{item.typed || "no address"}</strong>
          </Text>
          {item.reason && (
            <Text as="p" tone="subdued">
              {item.reason}
            </Text>
          )}
          {item.suggestion && <Text as="p">Suggestion: {item.suggestion}</Text>}
          {props.error && <Banner tone="critical">{props.error}</Banner>}
          <FormLayout>
            <FormLayout.Group>
              <Select
                label="Governance"
                name="governanceId"
                value={governanceId}
                onChange={(value) => {
                  setGovernanceId(value);
                  setAreaId("");
                }}
                options={[
                  { label: "Choose…", value: "" },
                  ...governances.map((g) => ({ label: g.name, value: String(g.id) })),
                ]}
              />
              <Select
                label="Area"
                name="areaId"
                value={areaId}
                onChange={setAreaId}
                options={[
                  { label: "Choose…", value: "" },
                  ...areas
                    .filter((a) => String(a.governanceId) === governanceId)
                    .map((a) => ({ label: a.name, value: String(a.id) })),
                ]}
              />
            </FormLayout.Group>
            <FormLayout.Group condensed>
              {part("block", "Block")}
              {part("street", "Street")}
              {part("avenue", "Avenue")}
              {part("house", "House")}
            </FormLayout.Group>
            <FormLayout.Group condensed>
              {part("building", "Building")}
              {part("floor", "Floor")}
              {part("apartment", "Apartment")}
            </FormLayout.Group>
          </FormLayout>
          <Checkbox
            label="Remember this spelling for future orders"
            name="remember"
            checked={remember}
            onChange={setRemember}
          />
          <div>
            <Button submit variant="primary" loading={busy} disabled={!areaId}>
              Send with this address
            </Button>
          </div>
        </BlockStack>
      </Form>
    </Card>
  );
}
