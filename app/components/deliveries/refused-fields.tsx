import { BlockStack, List, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { RefusedField } from "../../domain/timeline";

/**
 * What a courier's refusal asks for, part by part, in the page's language; the courier's own
 * words stay in the technical details.
 */
export function RefusedFields(props: { fields: readonly RefusedField[]; compact?: boolean }) {
  const { t } = useTranslation("delivery");
  return (
    <BlockStack gap="100">
      <Text
        as="p"
        variant={props.compact ? "bodySm" : "bodyMd"}
        tone={props.compact ? "subdued" : undefined}
      >
        {t("refused.title")}
      </Text>
      <List type="bullet">
        {props.fields.map((field) => (
          <List.Item key={field}>{t(`refused.${field}`)}</List.Item>
        ))}
      </List>
    </BlockStack>
  );
}
