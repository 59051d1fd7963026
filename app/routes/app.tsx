import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { env } from "../env.server";
import { ensureShopInstalled } from "../models/shop.server";
import { embeddedPageHeaders } from "../security/frame-policy";
import { reauthoriseIfAccessLost } from "../services/shopify-reauthorise.server";
import { authenticate } from "../shopify.server";
import { NAVIGATION } from "../navigation";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  await ensureShopInstalled(session.shop);
  // The merchant is here: a token Shopify would no longer renew is exchanged for a new one now.
  await reauthoriseIfAccessLost(request, session);
  // Framed by the admin of the shop the session token names, never the one `?shop=` names.
  return data(
    { apiKey: env().SHOPIFY_API_KEY, appBridgeUrl: env().APP_BRIDGE_URL ?? null },
    { headers: embeddedPageHeaders(session.shop) },
  );
};

export default function AppLayout() {
  const { apiKey, appBridgeUrl } = useLoaderData<typeof loader>();
  return (
    <AppProvider
      isEmbeddedApp
      apiKey={apiKey}
      {...(appBridgeUrl ? { __APP_BRIDGE_URL: appBridgeUrl } : {})}
    >
      <NavMenu>
        {NAVIGATION.map((item) => (
          <Link key={item.to} to={item.to} rel={item.to === "/app" ? "home" : undefined}>
            {item.label}
          </Link>
        ))}
      </NavMenu>
      <Outlet />
    </AppProvider>
  );
}

// Shopify needs Remix to catch thrown responses (redirects out of the iframe, re-authentication).
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
