import type { MetaFunction } from "@remix-run/node";
import type { ReactNode } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
} from "@remix-run/react";
import { errorPageFor } from "./i18n/error-pages";

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <link rel="preconnect" href="https://cdn.shopify.com/" />
        <link rel="stylesheet" href="https://cdn.shopify.com/static/fonts/inter/v4/styles.css" />
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

export const meta: MetaFunction = ({ error }) =>
  error
    ? [
        { title: errorPageFor(isRouteErrorResponse(error) ? error.status : 500).title },
        { name: "robots", content: "noindex" },
      ]
    : [];

export default function App() {
  return <Outlet />;
}

/**
 * Every error no route handles itself: a page or tracking link that does not exist, a refused
 * link, a failure. The visitor sees what happened in plain words, never the error's message or
 * stack (they go to the server log, app/entry.server.tsx).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const page = errorPageFor(status);
  return (
    <main
      style={{
        fontFamily: "Inter, system-ui, sans-serif",
        maxWidth: 560,
        margin: "64px auto",
        padding: "0 16px",
      }}
    >
      <h1 style={{ fontSize: 22 }}>{page.title}</h1>
      <p style={{ fontSize: 16 }}>{page.body}</p>
    </main>
  );
}
