import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link as RemixLink, useLoaderData, useRevalidator } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Box,
  Card,
  InlineGrid,
  InlineStack,
  Page,
  Text,
} from "@shopify/polaris";
import { useEffect, useRef } from "react";
import { chartLabels, OutcomeChart } from "../components/outcome-chart";
import { FigureLink, FigureLinkStyles } from "../components/figure-link";
import type { NextStep } from "../domain/next-steps";
import { CheckoutRatesBanner } from "../components/checkout-rates-banner";
import { ShopifyAccessLostBanner } from "../components/shopify-access-lost-banner";
import { homePage } from "../pages/home.server";
import { TO_COLLECT_STATES } from "../domain/settlements/ledger";
import { authenticate } from "../shopify.server";
import { Trans, useTranslation } from "react-i18next";
import { formatKwd, formatNumber } from "../i18n/format";
import { translateMessage } from "../i18n/messages";
import { useLanguage } from "../i18n/language";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return homePage(session.shop);
};

const REFRESH_MS = 30_000;

/** A figure of the page: a card that opens its list, saying "View". */
function Figure(props: { label: string; value: string; to: string; tone?: "critical" }) {
  const { t } = useTranslation(["home"]);
  return <FigureLink {...props} view={t("home:figures.view")} />;
}

/** What to do now, from the figures, each with the page that does it; nothing: no card. */
function NextSteps(props: { steps: NextStep[]; number: (value: number) => string }) {
  const { t } = useTranslation(["home"]);
  const rtl = useLanguage() === "ar";
  if (props.steps.length === 0) return null;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("home:nextSteps.title")}
        </Text>
        <BlockStack as="ul" gap="200">
          {props.steps.map((step) => (
            <li key={step.kind} className="next-step">
              <InlineStack gap="200" blockAlign="center" align="space-between" wrap={false}>
                <Text as="span">
                  <Text as="span" fontWeight="bold">
                    {props.number(step.count)}
                  </Text>{" "}
                  {t(`home:nextSteps.${step.kind}`)}
                </Text>
                <RemixLink to={step.to} className="next-step__action">
                  {`${t(`home:nextSteps.action.${step.kind}`)} ${rtl ? "←" : "→"}`}
                </RemixLink>
              </InlineStack>
            </li>
          ))}
        </BlockStack>
      </BlockStack>
    </Card>
  );
}

function Step(props: {
  done: boolean;
  to: string;
  children: string;
  number: number;
  doneLabel: string;
}) {
  return (
    <InlineStack gap="200" blockAlign="center" wrap={false}>
      <Box minWidth="56px">
        {props.done ? (
          <Badge tone="success">{props.doneLabel}</Badge>
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

/** Customers asked about their address (issue 26): each figure opens Customer answers' tab. */
function CustomerAnswersFigures(props: {
  figures: { waiting: number; answered: number; noAnswer: number; asking: boolean };
  number: (value: number) => string;
}) {
  const { t } = useTranslation(["home"]);
  const { figures, number } = props;
  const quiet = !figures.asking && figures.waiting + figures.answered + figures.noAnswer === 0;
  const page = (tab: string) => `/app/customer-answers?tab=${tab}`;
  return (
    <BlockStack gap="200">
      <Box paddingInline={{ xs: "400", sm: "0" }}>
        <Text as="h2" variant="headingMd">
          {t("home:customerAnswers.title")}
        </Text>
      </Box>
      {quiet ? (
        <Card>
          <Text as="p">
            {t("home:customerAnswers.off")}{" "}
            <RemixLink to="/app/settings">{t("home:customerAnswers.turnOn")}</RemixLink>
          </Text>
        </Card>
      ) : (
        <InlineGrid columns={3} gap="300">
          <Figure
            label={t("home:customerAnswers.waiting")}
            value={number(figures.waiting)}
            to={page("waiting")}
          />
          <Figure
            label={t("home:customerAnswers.answered")}
            value={number(figures.answered)}
            to={page("answered")}
          />
          <Figure
            label={t("home:customerAnswers.noAnswer")}
            value={number(figures.noAnswer)}
            to={page("all")}
          />
        </InlineGrid>
      )}
    </BlockStack>
  );
}

export default function Home() {
  const {
    connection,
    connectionError,
    courierEnvironment,
    steps,
    dashboard,
    recovered,
    customerAnswers,
    shopifyAccessLost,
    checkoutRatesOff,
    nextSteps,
  } = useLoaderData<typeof loader>();
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
  const { t } = useTranslation(["home"]);
  const language = useLanguage();
  const setupDone = steps.connected && steps.pickup && steps.firstSent;
  const today = dashboard.today;
  const n = (value: number) => formatNumber(value, language);
  const kwd = (fils: number) => formatKwd(fils / 1000, language);
  const list = (query: string) => `/app/deliveries?${query}`;

  return (
    <Page title={t("home:title")}>
      <FigureLinkStyles />
      <BlockStack gap="400">
        {shopifyAccessLost !== null && <ShopifyAccessLostBanner reason={shopifyAccessLost} />}
        {checkoutRatesOff && (
          <CheckoutRatesBanner problem={checkoutRatesOff.problem} since={checkoutRatesOff.since} />
        )}
        {!setupDone && (
          <Card>
            <BlockStack gap="300">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  {t("home:setup.title")}
                </Text>
                {connection === "failing" ? (
                  <Badge tone="critical">{t("home:setup.failing")}</Badge>
                ) : (
                  <Badge tone="attention">
                    {t("home:setup.progress", {
                      done: [steps.connected, steps.pickup, steps.firstSent].filter(Boolean).length,
                    })}
                  </Badge>
                )}
              </InlineStack>
              {connectionError && (
                <Text as="p" tone="critical">
                  <span dir="auto">{translateMessage(t, connectionError)}</span>
                </Text>
              )}
              <BlockStack gap="200">
                <Step
                  number={1}
                  done={steps.connected}
                  to="/app/settings"
                  doneLabel={t("home:setup.done")}
                >
                  {t("home:setup.connect")}
                </Step>
                <Step
                  number={2}
                  done={steps.pickup}
                  to="/app/pickup-locations"
                  doneLabel={t("home:setup.done")}
                >
                  {t("home:setup.pickup")}
                </Step>
                <Step
                  number={3}
                  done={steps.firstSent}
                  to="/app/send"
                  doneLabel={t("home:setup.done")}
                >
                  {t("home:setup.send")}
                </Step>
              </BlockStack>
            </BlockStack>
          </Card>
        )}

        <NextSteps steps={nextSteps} number={n} />

        <BlockStack gap="300">
          <InlineGrid columns={{ xs: 2, md: 3, lg: 6 }} gap="300">
            <Figure
              label={t("home:figures.toSend")}
              value={n(dashboard.toSend)}
              to={list("tab=in_progress&state=pending,ready,creating,unknown")}
            />
            <Figure
              label={t("home:figures.attention")}
              value={n(dashboard.attention)}
              to={list("tab=attention")}
              tone="critical"
            />
            <Figure
              label={t("home:figures.atCourier")}
              value={n(dashboard.atCourier)}
              to={list("tab=in_progress&state=created,picked_up,in_transit")}
            />
            <Figure
              label={t("home:figures.outForDelivery")}
              value={n(dashboard.outForDelivery)}
              to={list("tab=out_for_delivery")}
            />
            <Figure
              label={t("home:figures.deliveredToday")}
              value={n(dashboard.deliveredToday)}
              to={list(`tab=delivered&finished=${today}`)}
            />
            <Figure
              label={t("home:figures.failedOrReturnedToday")}
              value={n(dashboard.failedOrReturnedToday)}
              to={list(`tab=failed_returned&finished=${today}`)}
              tone="critical"
            />
          </InlineGrid>
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
            <Figure
              label={t("home:figures.cashToCollect")}
              value={kwd(dashboard.cashToCollect)}
              to={list(`cod=cod&state=${TO_COLLECT_STATES.join(",")}`)}
            />
            <Figure
              label={t("home:figures.collectedToday")}
              value={kwd(dashboard.collectedToday)}
              to={list(`cod=cod&tab=delivered&finished=${today}`)}
            />
          </InlineGrid>
        </BlockStack>

        <CustomerAnswersFigures figures={customerAnswers} number={n} />

        {recovered > 0 && (
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t("home:recovered.title")}
              </Text>
              <Text as="p">
                {t("home:recovered.found", { number: n(recovered) })}{" "}
                <Trans
                  t={t}
                  i18nKey="home:recovered.why"
                  components={{ list: <RemixLink to="/app/deliveries" /> }}
                />
              </Text>
            </BlockStack>
          </Card>
        )}

        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("home:chart.heading")}
            </Text>
            <OutcomeChart days={dashboard.series} labels={chartLabels(t, language)} />
          </BlockStack>
        </Card>

        <Box paddingInline={{ xs: "400", sm: "0" }}>
          <Text as="p" tone="subdued" variant="bodySm">
            {courierEnvironment === "production"
              ? t("home:environment.production")
              : t("home:environment.sandbox")}
          </Text>
        </Box>
      </BlockStack>
    </Page>
  );
}
