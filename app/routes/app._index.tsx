import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link as RemixLink, useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, InlineStack, Layout, List, Page, Text } from "@shopify/polaris";
import { ShopifyAccessLostBanner } from "../components/shopify-access-lost-banner";
import { getCourierAccount } from "../models/courier-account.server";
import { countRecoveredFulfillments } from "../models/fulfillment-checks.server";
import { getShopifyAccess } from "../models/shopify-access.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const [account, recovered, shopifyAccess] = await Promise.all([
    getCourierAccount(session.shop),
    countRecoveredFulfillments(session.shop),
    getShopifyAccess(session.shop),
  ]);
  return {
    recovered,
    shopifyAccessLost: shopifyAccess.lostAt ? (shopifyAccess.reason ?? "") : null,
    shop: session.shop,
    courierEnvironment: account.environment,
    connection: !account.keyHint ? "missing" : account.checkError ? "failing" : "working",
    connectionError: account.checkError,
  } as const;
};

const connectionBadge = {
  missing: <Badge tone="attention">Not connected</Badge>,
  failing: <Badge tone="critical">Connection failing</Badge>,
  working: <Badge tone="success">Connected</Badge>,
};

export default function Home() {
  const { shop, courierEnvironment, connection, connectionError, recovered, shopifyAccessLost } =
    useLoaderData<typeof loader>();
  return (
    <Page title="Courier deliveries">
      <Layout>
        {shopifyAccessLost !== null && (
          <Layout.Section>
            <ShopifyAccessLostBanner reason={shopifyAccessLost} />
          </Layout.Section>
        )}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  Get started
                </Text>
                {connectionBadge[connection]}
              </InlineStack>
              <Text as="p">
                {shop} sends deliveries to the courier&apos;s{" "}
                <strong>{courierEnvironment === "production" ? "production" : "sandbox"}</strong>{" "}
                environment.
              </Text>
              {connectionError && (
                <Text as="p" tone="critical">
                  {connectionError}
                </Text>
              )}
              <List type="number">
                <List.Item>
                  Choose the courier environment and store your API key in{" "}
                  <RemixLink to="/app/settings">Settings</RemixLink>.
                </List.Item>
                <List.Item>
                  Map each store location to the courier&apos;s governance and area.
                </List.Item>
                <List.Item>Fulfil an order: the delivery is created and tracked for you.</List.Item>
              </List>
            </BlockStack>
          </Card>
        </Layout.Section>
        {recovered > 0 && (
          <Layout.Section>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  Missed notifications
                </Text>
                <Text as="p">
                  {recovered === 1
                    ? "1 fulfillment whose notification never arrived was found and sent."
                    : `${recovered} fulfillments whose notification never arrived were found and sent.`}{" "}
                  Shopify does not always tell the app about a fulfillment, so the app looks for
                  them every 15 minutes. They are listed under{" "}
                  <RemixLink to="/app/deliveries">Deliveries</RemixLink>.
                </Text>
              </BlockStack>
            </Card>
          </Layout.Section>
        )}
      </Layout>
    </Page>
  );
}
