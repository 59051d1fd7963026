import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { answerOnShopperPage } from "../actions/shopper-answer.server";
import { shopperPageDisplay } from "../components/shopper-page/display.server";
import { ShopperPage } from "../components/shopper-page/shopper-page";
import { answerFormValues, type AnswerProblem } from "../components/shopper-page/view";
import { languageOf } from "../i18n/config";
import { shopperLanguage } from "../i18n/i18next.server";
import { tFor } from "../i18n/instance";
import { languageFromMatches } from "../i18n/language";
import { shopperPage } from "../shopper/page.server";

/**
 * The shopper's page (issue 26, ADR 0056) behind either link they hold: the ask's, sent before
 * fulfilment, or the delivery's on the Shopify fulfillment; 128 random bits, and server.js limits
 * how many links one client may try. In the language they switch to (?lang=), else the one they
 * shopped in, else their browser's. Never the customer's name; the phone masked.
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const view = await shopperPage(params.token ?? "");
  if (!view) throw new Response("Unknown tracking link.", { status: 404 });
  const locale = await shopperLanguage(request, languageOf(view.language));
  const done = new URL(request.url).searchParams.get("done") === "1";
  return { locale, done, page: shopperPageDisplay(view, locale) };
};

/** The answer: recorded, then the page again with "thank you" (POST, redirect, GET). */
export const action = async ({ request, params }: ActionFunctionArgs) => {
  const values = answerFormValues(await request.formData());
  const outcome = await answerOnShopperPage(params.token ?? "", values);
  if (outcome.ok) {
    const url = new URL(request.url);
    url.searchParams.set("done", "1");
    return redirect(`${url.pathname}${url.search}`, 303);
  }
  if ("refusal" in outcome)
    return data<AnswerProblem>(
      { refusal: outcome.refusal, values },
      { status: outcome.refusal === "not_found" ? 404 : 409 },
    );
  // The form again, with what was typed and what to fix.
  return data<AnswerProblem>({ errors: outcome.errors, values }, { status: 400 });
};

export const handle = { publicPage: true };

export const headers = () => ({
  // The link is the key: it must not leave in a Referer header, nor be kept by shared caches.
  // "same-origin", not "no-referrer": under no-referrer a browser posts the form without
  // JavaScript with `Origin: null`, which the cross-site check (and Remix's) must refuse; under
  // same-origin the origin is sent and no other site ever gets a Referer.
  "Referrer-Policy": "same-origin",
  "Cache-Control": "private, no-store",
});

export const meta: MetaFunction = ({ matches }) => [
  { title: tFor(languageFromMatches(matches), "tracking")("title") },
  { name: "robots", content: "noindex" },
];

export default function ShopperPageRoute() {
  const { page, done } = useLoaderData<typeof loader>();
  const problem = useActionData<typeof action>() as AnswerProblem | undefined;
  return <ShopperPage page={page} done={done} problem={problem} />;
}
