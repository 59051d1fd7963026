import { Form, Link as RemixLink, useNavigation } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineGrid, InlineStack, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatShopperDay } from "../../i18n/format";
import { useLanguage } from "../../i18n/language";
import type { SecondChanceView } from "../../pages/second-chance.server";

const PARTS = ["block", "street", "avenue", "house", "building", "floor", "apartment", "paci"];

function Fact(props: { label: string; children: ReactNode }) {
  return (
    <BlockStack gap="050">
      <Text as="span" tone="subdued" variant="bodySm">
        {props.label}
      </Text>
      <Text as="span" breakWord>
        {props.children}
      </Text>
    </BlockStack>
  );
}

/**
 * The delivery page's second chance (issue 27, item 5): after the courier's failed attempt the
 * customer was asked again; once they answered, their address, phone and when they will be in,
 * and the one action that sends the delivery again with it (or where it was sent again).
 */
export function SecondChanceCard(props: { secondChance: SecondChanceView | null }) {
  const { t } = useTranslation("delivery");
  const language = useLanguage();
  const navigation = useNavigation();
  const chance = props.secondChance;
  if (!chance) return null;
  const answer = chance.answer;
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "send_again_with_answer";
  const place = answer
    ? [
        answer.area?.[language] ?? null,
        ...PARTS.filter((part) => answer.parts[part]).map(
          (part) => `${t(`secondChance.parts.${part}`)} ${answer.parts[part]}`,
        ),
      ]
        .filter(Boolean)
        .join(language === "ar" ? "، " : ", ")
    : null;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t(`secondChance.title.${chance.state}`)}
          </Text>
          {chance.sentAgainAs && <Badge tone="success">{t("secondChance.sentBadge")}</Badge>}
        </InlineStack>
        {!answer && (
          <Text as="p" tone="subdued">
            {t(`secondChance.help.${chance.state}`, {
              at: chance.answerBy ? formatDateTime(chance.answerBy, language) : "",
            })}
          </Text>
        )}
        {answer && (
          <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
            <Fact label={t("secondChance.address")}>
              <span dir="auto">{place}</span>
            </Fact>
            <Fact label={t("secondChance.phone")}>
              <span dir="ltr">{answer.phone ?? t("secondChance.phoneUnchanged")}</span>
            </Fact>
            {answer.when && (
              <Fact label={t("secondChance.when")}>
                {formatShopperDay(answer.when.day, language)},{" "}
                {t(`secondChance.dayParts.${answer.when.part}`)}
                {answer.when.note && (
                  <>
                    <br />
                    <span dir="auto">{answer.when.note}</span>
                  </>
                )}
              </Fact>
            )}
            {answer.notes && (
              <Fact label={t("secondChance.notes")}>
                <span dir="auto">{answer.notes}</span>
              </Fact>
            )}
          </InlineGrid>
        )}
        {chance.canSendAgain && (
          <Form method="post">
            <input type="hidden" name="intent" value="send_again_with_answer" />
            <BlockStack gap="200">
              <Text as="p" tone="subdued">
                {t("secondChance.sendHelp")}
              </Text>
              <InlineStack>
                <Button submit variant="primary" loading={busy}>
                  {t("secondChance.send")}
                </Button>
              </InlineStack>
            </BlockStack>
          </Form>
        )}
        {chance.sentAgainAs && (
          <Text as="p">
            <RemixLink to={`/app/deliveries/${chance.sentAgainAs}`}>
              {t("secondChance.sentAgain")}
            </RemixLink>
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}
