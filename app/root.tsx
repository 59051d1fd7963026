import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useEffect, type ReactNode } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
} from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";
import { ArabicFont } from "./i18n/arabic-font";
import { directionOf } from "./i18n/config";
import { errorPageFor } from "./i18n/error-pages";
import { visitorLanguage } from "./i18n/i18next.server";
import { tFor } from "./i18n/instance";
import { languageFromMatches, useLanguage } from "./i18n/language";

// The language of pages nobody signed in to (error pages); deeper routes decide their own.
export const loader = async ({ request }: LoaderFunctionArgs) => ({
  locale: await visitorLanguage(request),
});

export function Layout({ children }: { children: ReactNode }) {
  const language = useLanguage();
  useChangeLanguage(language);
  // The shopper's page draws with the phone's own fonts: no stylesheet from another site to wait
  // for, no font arriving late to shift it (issue 26).
  const publicPage = useMatches().some(
    (match) => (match.handle as { publicPage?: boolean } | undefined)?.publicPage,
  );
  // Said once React has taken the server's page over: until then a click does nothing, and a
  // change to the page (a browser tool, a screenshot hiding the caret) breaks hydration. The
  // browser tests open pages with test/support/browser.ts's gotoReady, which waits for it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <html lang={language} dir={directionOf(language)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        {!publicPage && <link rel="preconnect" href="https://cdn.shopify.com/" />}
        {!publicPage && (
          <link rel="stylesheet" href="https://cdn.shopify.com/static/fonts/inter/v4/styles.css" />
        )}
        {language === "ar" && <ArabicFont />}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export const meta: MetaFunction = ({ error, matches }) =>
  error
    ? [
        {
          title: tFor(
            languageFromMatches(matches),
            "errors",
          )(`${errorPageFor(isRouteErrorResponse(error) ? error.status : 500)}.title`),
        },
        { name: "robots", content: "noindex" },
      ]
    : [];

export default function App() {
  return <Outlet />;
}

/**
 * Every error no route handles itself: a page or tracking link that does not exist, a refused
 * link, a failure. The visitor sees what happened in plain words, in their language, never the
 * error's message or stack (they go to the server log, app/entry.server.tsx).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("errors");
  const page = errorPageFor(isRouteErrorResponse(error) ? error.status : 500);
  const { i18n } = useTranslation();
  const other = i18n.language === "ar" ? "en" : "ar";
  return (
    <main
      style={{
        fontFamily: 'Inter, "Noto Sans Arabic", system-ui, sans-serif',
        maxWidth: 560,
        margin: "64px auto",
        padding: "0 16px",
      }}
    >
      <h1 style={{ fontSize: 22 }}>{t(`${page}.title`)}</h1>
      <p style={{ fontSize: 16 }}>{t(`${page}.body`)}</p>
      <p style={{ fontSize: 14 }}>
        <a href={`?lang=${other}`} lang={other} dir={directionOf(other)}>
          {t("otherLanguage")}
        </a>
      </p>
    </main>
  );
}
