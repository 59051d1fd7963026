import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigate } from "@remix-run/react";
import {
  Box,
  Card,
  Checkbox,
  EmptySearchResult,
  EmptyState,
  IndexTable,
  Page,
  Tabs,
  Text,
} from "@shopify/polaris";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { AnswerRow, AnswersTableColumns } from "../components/customer-answers/answers-table";
import { useSmallScreen } from "../components/small-screen";
import { formatNumber } from "../i18n/format";
import { useLanguage } from "../i18n/language";
import { ANSWER_TABS } from "../models/read/customer-answers";
import {
  customerAnswersPage,
  releaseFromPage,
  RELEASE_STATUS,
} from "../pages/customer-answers.server";
import { authenticate } from "../shopify.server";

/**
 * Customer answers (issue 26): the orders the app asked their customer about, by tab (waiting,
 * answered, all), with the customer's link and "Release now". Its data and the release are
 * app/pages/customer-answers.server.ts; its rows app/components/customer-answers/.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return customerAnswersPage(session.shop, new URL(request.url).searchParams);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const outcome = await releaseFromPage(session.shop, Object.fromEntries(await request.formData()));
  return Response.json(outcome, { status: outcome.ok ? 200 : RELEASE_STATUS[outcome.error] });
};

export default function CustomerAnswers() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("answers");
  const language = useLanguage();
  const navigate = useNavigate();
  const condensed = useSmallScreen();
  const go = (params: { tab: string; quiet?: boolean; page?: number }) => {
    const next = new URLSearchParams({ tab: params.tab });
    if (params.quiet) next.set("quiet", "1");
    if (params.page && params.page > 1) next.set("page", String(params.page));
    navigate(`?${next.toString()}`, { preventScrollReset: true });
  };
  // Stable between renders: Polaris's tabs measure themselves again whenever this array changes.
  const { counts } = data;
  const tabs = useMemo(
    () =>
      ANSWER_TABS.map((tab) => ({
        id: `answers-${tab}`,
        content: t(`answers:tabs.${tab}`),
        badge: tab === "all" ? undefined : formatNumber(counts[tab], language),
      })),
    [t, counts, language],
  );
  const nothingYet = counts.all === 0 && counts.notNeeded === 0;
  const askingOff = !data.asking.addresses && !data.asking.cash;

  return (
    <Page
      title={t("answers:title")}
      subtitle={t("answers:subtitle")}
      fullWidth
      secondaryActions={[{ content: t("answers:settingsLink"), url: "/app/settings" }]}
    >
      {nothingYet ? (
        <Card>
          <EmptyState
            heading={t("answers:empty.title")}
            action={{ content: t("answers:empty.settings"), url: "/app/settings" }}
            image=""
          >
            <p>{t("answers:empty.body")}</p>
            {askingOff && <p>{t("answers:empty.off")}</p>}
          </EmptyState>
        </Card>
      ) : (
        <Card padding="0">
          <Tabs
            tabs={tabs}
            selected={ANSWER_TABS.indexOf(data.tab)}
            onSelect={(index) => go({ tab: ANSWER_TABS[index] ?? "waiting" })}
          />
          {data.tab === "all" && counts.notNeeded > 0 && (
            <Box paddingInline="400" paddingBlock="200">
              <Checkbox
                label={`${t("answers:showNotNeeded")} (${formatNumber(counts.notNeeded, language)})`}
                checked={data.quiet}
                onChange={(checked) => go({ tab: "all", quiet: checked })}
              />
            </Box>
          )}
          <AnswersTableColumns>
            <IndexTable
              condensed={condensed}
              selectable={false}
              resourceName={{
                singular: t("answers:resource.singular"),
                plural: t("answers:resource.plural"),
              }}
              itemCount={data.rows.length}
              emptyState={
                <EmptySearchResult
                  title={t("answers:emptyTab.title")}
                  description={t(`answers:emptyTab.${data.tab}`)}
                  withIllustration
                />
              }
              headings={[
                { title: t("answers:columns.order") },
                { title: t("answers:columns.state") },
                { title: t("answers:columns.why") },
                { title: t("answers:columns.asked") },
                { title: t("answers:columns.answer") },
                { title: t("answers:columns.actions") },
              ]}
              pagination={
                data.hasNext || data.page > 1
                  ? {
                      hasNext: data.hasNext,
                      hasPrevious: data.page > 1,
                      onNext: () => go({ tab: data.tab, quiet: data.quiet, page: data.page + 1 }),
                      onPrevious: () =>
                        go({ tab: data.tab, quiet: data.quiet, page: data.page - 1 }),
                    }
                  : undefined
              }
            >
              {data.rows.map((ask, index) => (
                <AnswerRow key={ask.id} ask={ask} index={index} condensed={condensed} />
              ))}
            </IndexTable>
          </AnswersTableColumns>
          {askingOff && (
            <Box padding="400">
              <Text as="p" tone="subdued">
                {t("answers:empty.off")}
              </Text>
            </Box>
          )}
        </Card>
      )}
    </Page>
  );
}
