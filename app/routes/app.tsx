import {
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { useTranslation } from "react-i18next";
import { FirstPaintLayout } from "../components/first-paint";
import { requestFromPhone } from "../components/small-screen";
import { env } from "../env.server";
import { tFor } from "../i18n/instance";
import { languageFromMatches } from "../i18n/language";
import { POLARIS_TRANSLATIONS } from "../i18n/polaris";
import { ensureShopInstalled } from "../models/shop.server";
import { staffLanguage } from "../models/staff-language.server";
import { embeddedPageHeaders } from "../security/frame-policy";
import { reauthoriseIfAccessLost } from "../services/shopify-reauthorise.server";
import { authenticate } from "../shopify.server";
import { NAVIGATION } from "../navigation";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, sessionToken } = await authenticate.admin(request);
  await ensureShopInstalled(session.shop);
  // The merchant is here: a token Shopify would no longer renew is exchanged for a new one now.
  await reauthoriseIfAccessLost(request, session);
  // The staff member's language: their choice, else the Shopify admin's (ADR 0040).
  const locale = await staffLanguage({
    shop: session.shop,
    userId: sessionToken?.sub ?? null,
    shopifyLocale: new URL(request.url).searchParams.get("locale"),
  });
  // Framed by the admin of the shop the session token names, never the one `?shop=` names.
  return data(
    {
      apiKey: env().SHOPIFY_API_KEY,
      appBridgeUrl: env().APP_BRIDGE_URL ?? null,
      locale,
      // The server renders a phone's layout for a phone (useSmallScreen).
      phone: requestFromPhone(request.headers),
    },
    { headers: embeddedPageHeaders(session.shop) },
  );
};

// Every admin page has a title (axe: document-title), in the page's language.
export const meta: MetaFunction = ({ matches }) => [
  { title: tFor(languageFromMatches(matches))("appName") },
];

export default function AppLayout() {
  const { apiKey, appBridgeUrl, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <AppProvider
      isEmbeddedApp
      apiKey={apiKey}
      i18n={POLARIS_TRANSLATIONS[locale]}
      {...(appBridgeUrl ? { __APP_BRIDGE_URL: appBridgeUrl } : {})}
    >
      <FirstPaintLayout />
      <NavMenu>
        {NAVIGATION.map((item) => (
          <Link key={item.to} to={item.to} rel={item.to === "/app" ? "home" : undefined}>
            {t(item.labelKey)}
          </Link>
        ))}
      </NavMenu>
      <Outlet />
    </AppProvider>
  );
}

/**
 * Shopify needs Remix to catch thrown responses (redirects out of the iframe, re-authentication):
 * those go to its boundary. Something missing inside the app (another shop's delivery, a wrong
 * id) gets a page in the merchant's language with a way back, not the response's bare text.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("errors");
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main
        style={{
          fontFamily: 'Inter, "Noto Sans Arabic", system-ui, sans-serif',
          maxWidth: 560,
          margin: "48px auto",
          padding: "0 16px",
        }}
      >
        <h1 style={{ fontSize: 22, lineHeight: 1.4, margin: "0 0 12px" }}>{t("inApp.title")}</h1>
        <p style={{ fontSize: 16, lineHeight: 1.5, margin: "0 0 16px" }}>{t("inApp.body")}</p>
        <p style={{ fontSize: 16, margin: 0 }}>
          <Link to="/app/deliveries">{t("inApp.back")}</Link>
        </p>
      </main>
    );
  }
  return boundary.error(error);
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
