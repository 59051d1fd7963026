import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link as RemixLink, useLoaderData, useRevalidator } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Box,
  Card,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  Text,
} from "@shopify/polaris";
import { useEffect, useRef } from "react";
import { OutcomeChart } from "../components/outcome-chart";
import prisma from "../db.server";
import { getDashboard, kuwaitDate } from "../models/dashboard.server";
import { getCourierAccount } from "../models/courier-account.server";
import { authenticate } from "../shopify.server";
import { formatKwd } from "../components/format";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shop = session.shop;
  const now = new Date();
  const [account, dashboard, pickup, sent] = await Promise.all([
    getCourierAccount(shop),
    getDashboard(shop, now),
    prisma.pickupLocation.findFirst({ where: { shop }, select: { id: true } }),
    prisma.delivery.findFirst({
      where: { shop, courierOrderId: { not: null } },
      select: { id: true },
    }),
  ]);
  const connection = !account.keyHint ? "missing" : account.checkError ? "failing" : "working";
  return {
    courierEnvironment: account.environment,
    connection,
    connectionError: account.checkError,
    steps: {
      connected: connection === "working",
      pickup: pickup !== null,
      firstSent: sent !== null,
    },
    dashboard: {
      ...dashboard,
      todayStart: dashboard.todayStart.toISOString(),
      today: kuwaitDate(now),
    },
  };
};

const REFRESH_MS = 30_000;

function Figure(props: { label: string; value: string; to: string; tone?: "critical" }) {
  return (
    <RemixLink to={props.to} style={{ textDecoration: "none", color: "inherit" }}>
      <Card>
        <BlockStack gap="100">
          <Text as="h3" variant="bodySm" tone="subdued">
            {props.label}
          </Text>
          <Text
            as="p"
            variant="headingXl"
            tone={props.tone === "critical" && props.value !== "0" ? "critical" : undefined}
          >
            {props.value}
          </Text>
        </BlockStack>
      </Card>
    </RemixLink>
  );
}

function Step(props: { done: boolean; to: string; children: string; number: number }) {
  return (
    <InlineStack gap="200" blockAlign="center" wrap={false}>
      <Box minWidth="56px">
        {props.done ? (
          <Badge tone="success">Done</Badge>
        ) : (
          <Text as="span" tone="subdued">
            {`${props.number}.`}
          </Text>
        )}
      </Box>
      <RemixLink to={props.to}>
        <Text as="span" tone={props.done ? "subdued" : undefined}>
          {props.children}
        </Text>
      </RemixLink>
    </InlineStack>
  );
}

export default function Home() {
  const { connection, connectionError, courierEnvironment, steps, dashboard } =
    useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    const again = () => {
      if (document.visibilityState === "visible") revalidate.current();
    };
    const timer = setInterval(again, REFRESH_MS);
    document.addEventListener("visibilitychange", again);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", again);
    };
  }, []);
  const setupDone = steps.connected && steps.pickup && steps.firstSent;
  const today = dashboard.today;
  const n = (value: number) => value.toLocaleString("en-US");
  const kwd = (fils: number) => formatKwd((fils / 1000).toFixed(3));
  const list = (query: string) => `/app/deliveries?${query}`;

  return (
    <Page title="Today's deliveries">
      <Layout>
        {!setupDone && (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    Set up deliveries
                  </Text>
                  {connection === "failing" ? (
                    <Badge tone="critical">Courier connection failing</Badge>
                  ) : (
                    <Badge tone="attention">
                      {`${[steps.connected, steps.pickup, steps.firstSent].filter(Boolean).length} of 3 done`}
                    </Badge>
                  )}
                </InlineStack>
                {connectionError && (
                  <Text as="p" tone="critical">
                    {connectionError}
                  </Text>
                )}
                <BlockStack gap="200">
                  <Step number={1} done={steps.connected} to="/app/settings">
                    Connect your courier account in Settings
                  </Step>
                  <Step number={2} done={steps.pickup} to="/app/pickup-locations">
                    Confirm the pickup address of each store location
                  </Step>
                  <Step number={3} done={steps.firstSent} to="/app/send">
                    Send your first order to the courier
                  </Step>
                </BlockStack>
              </BlockStack>
            </Card>
          </Layout.Section>
        )}
        <Layout.Section>
          <BlockStack gap="300">
            <InlineGrid columns={{ xs: 2, md: 3, lg: 6 }} gap="300">
              <Figure
                label="To send"
                value={n(dashboard.toSend)}
                to={list("tab=in_progress&state=pending,ready,creating,unknown")}
              />
              <Figure
                label="Needs attention"
                value={n(dashboard.attention)}
                to={list("tab=attention")}
                tone="critical"
              />
              <Figure
                label="At the courier"
                value={n(dashboard.atCourier)}
                to={list("tab=in_progress&state=created,picked_up,in_transit")}
              />
              <Figure
                label="Out for delivery"
                value={n(dashboard.outForDelivery)}
                to={list("tab=out_for_delivery")}
              />
              <Figure
                label="Delivered today"
                value={n(dashboard.deliveredToday)}
                to={list("tab=delivered")}
              />
              <Figure
                label="Failed or returned today"
                value={n(dashboard.failedOrReturnedToday)}
                to={list("tab=failed_returned")}
                tone="critical"
              />
            </InlineGrid>
            <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
              <Figure
                label="Cash to collect"
                value={kwd(dashboard.cashToCollect)}
                to={list("cod=cod&tab=in_progress")}
              />
              <Figure
                label="Cash collected today"
                value={kwd(dashboard.collectedToday)}
                to={list(`cod=cod&tab=delivered&from=${today}&to=${today}`)}
              />
            </InlineGrid>
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                The last 14 days
              </Text>
              <OutcomeChart days={dashboard.series} />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Text as="p" tone="subdued" variant="bodySm">
            {courierEnvironment === "production"
              ? "Deliveries go to the courier's live service."
              : "Deliveries go to the courier's test service (sandbox): nothing is really delivered."}
          </Text>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
