import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link as RemixLink, useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, List, Page, Text } from "@shopify/polaris";
import { getShopSettings } from "../models/shop.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const settings = await getShopSettings(session.shop);
  return {
    shop: session.shop,
    courierEnvironment: settings?.courierEnvironment ?? "sandbox",
  };
};

export default function Home() {
  const { shop, courierEnvironment } = useLoaderData<typeof loader>();
  return (
    <Page title="Courier deliveries">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Get started
              </Text>
              <Text as="p">
                {shop} sends deliveries to the courier&apos;s{" "}
                <strong>{courierEnvironment === "production" ? "production" : "sandbox"}</strong>{" "}
                environment.
              </Text>
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
      </Layout>
    </Page>
  );
}
