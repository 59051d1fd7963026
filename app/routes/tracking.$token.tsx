import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { directionOf, LANGUAGES } from "../i18n/config";
import { formatDateTime } from "../i18n/format";
import { shopperLanguage } from "../i18n/i18next.server";
import { tFor } from "../i18n/instance";
import { languageFromMatches } from "../i18n/language";
import { trackingPage } from "../shopper/tracking-page.server";

/**
 * The public tracking page behind the URL on the Shopify fulfillment: /tracking/<token>, 128
 * random bits (ADR 0012); server.js limits how many links one client may try. It shows the
 * parcel's journey, the shop's name and contact, in the shopper's language (the one they switch
 * to with ?lang=, else the one they shopped in, else their browser's) — never the customer's
 * name, address or phone.
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const page = await trackingPage(params.token ?? "");
  if (!page) throw new Response("Unknown tracking link.", { status: 404 });
  return { locale: await shopperLanguage(request, page.customerLanguage), ...page.view };
};

export const headers = () => ({
  // The link is the key: it must not leave in a Referer header, nor be kept by shared caches.
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "private, no-store",
});

export const meta: MetaFunction = ({ matches }) => [
  { title: tFor(languageFromMatches(matches), "tracking")("title") },
  { name: "robots", content: "noindex" },
];

const STYLE = `
body{margin:0}
.tp{font-family:Inter,"Noto Sans Arabic",system-ui,sans-serif;color:#1a1a1a;background:#f1f1f1;min-height:100vh;margin:0;padding:16px}
.tp-card{max-width:520px;margin:0 auto;background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 2px rgba(0,0,0,.12)}
.tp-top{display:flex;justify-content:space-between;align-items:center;gap:12px}
.tp-shop{font-size:15px;font-weight:600;margin:0}
.tp-lang{font-size:14px;color:#005bd3}
.tp h1{font-size:24px;line-height:1.3;margin:16px 0 4px}
.tp-number{color:#616161;font-size:14px;margin:0}
.tp-outcome{border-radius:8px;padding:12px 14px;margin:16px 0 0;font-size:16px;font-weight:600}
.tp-outcome.good{background:#cdfee1;color:#0c5132}
.tp-outcome.bad{background:#fee9e8;color:#8e1f0b}
.tp ol{list-style:none;margin:20px 0 0;padding:0}
.tp li{position:relative;padding:0 0 18px;padding-inline-start:28px}
.tp li::before{content:"";position:absolute;inset-inline-start:5px;top:4px;width:12px;height:12px;border-radius:50%;background:#8a8a8a}
.tp li::after{content:"";position:absolute;inset-inline-start:10px;top:18px;bottom:0;width:2px;background:#e3e3e3}
.tp li:last-child::after{display:none}
.tp li.now::before{background:#005bd3;box-shadow:0 0 0 4px #e0f0ff}
.tp li.ahead{color:#616161}
.tp li.ahead::before{background:#fff;border:2px solid #b5b5b5;width:8px;height:8px}
.tp-step{font-size:16px;font-weight:600;display:block}
.tp li.ahead .tp-step{font-weight:400}
.tp-when{font-size:14px;color:#616161}
.tp-contact{border-top:1px solid #e3e3e3;margin-top:8px;padding-top:16px;font-size:15px}
.tp-contact a{display:inline-block;margin-inline-end:16px;margin-top:8px;color:#005bd3;font-weight:600}
`;

export default function Tracking() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("tracking");
  const language = i18n.language === "ar" ? "ar" : "en";
  const other = LANGUAGES.find((l) => l !== language)!;
  const current = data.done.at(-1)?.step;
  return (
    <div className="tp">
      <style>{STYLE}</style>
      <main className="tp-card">
        <div className="tp-top">
          <p className="tp-shop" translate={data.shopName ? "no" : undefined}>
            {data.shopName ?? t("yourParcel")}
          </p>
          <a className="tp-lang" href={`?lang=${other}`} lang={other} dir={directionOf(other)}>
            {t(`languageName.${other}`)}
          </a>
        </div>
        <h1>{current ? t(`headline.${current}`) : t("headline.booked")}</h1>
        <p className="tp-number">
          {t("number")} <bdi translate="no">{data.number}</bdi>
        </p>
        {data.outcome && (
          <p className={`tp-outcome ${data.outcome === "delivered" ? "good" : "bad"}`}>
            {t(`outcome.${data.outcome}`)}
          </p>
        )}
        <ol aria-label={t("stepsLabel")}>
          {data.done.map((step) => (
            <li
              key={step.step}
              className={step.step === current ? "now" : undefined}
              aria-current={step.step === current ? "step" : undefined}
            >
              <span className="tp-step">{t(`step.${step.step}`)}</span>
              <span className="tp-when">
                <bdi>{formatDateTime(step.at, language)}</bdi>
              </span>
            </li>
          ))}
          {data.ahead.map((step) => (
            <li key={step} className="ahead">
              <span className="tp-step">{t(`step.${step}`)}</span>
              <span className="tp-when">{t("notYet")}</span>
            </li>
          ))}
        </ol>
        {(data.phone || data.email) && (
          <div className="tp-contact">
            <div>{t("contact")}</div>
            {/* The number reads left to right inside its own isolate; the link itself keeps the
                page's direction, so it starts where the line above starts. */}
            {data.phone && (
              <a href={`tel:${data.phone.replace(/\s/g, "")}`} translate="no">
                <bdi dir="ltr">{data.phone}</bdi>
              </a>
            )}
            {data.email && (
              <a href={`mailto:${data.email}`} translate="no">
                <bdi dir="ltr">{data.email}</bdi>
              </a>
            )}
          </div>
        )}
      </main>
    </div>
  );
}
