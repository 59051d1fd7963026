import { Link as RemixLink } from "@remix-run/react";
import { BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import { useLanguage } from "../i18n/language";

/**
 * A figure that opens the list it counts (issue 29): the whole card is the link, and it looks
 * like one — a "View" with an arrow in the link colour, underlined and the card raised on hover,
 * and a focus ring for the keyboard.
 */
const CSS = [
  ".figure-link { display: block; height: 100%; color: inherit; text-decoration: none; border-radius: var(--p-border-radius-300, 12px); }",
  ".figure-link > .Polaris-ShadowBevel { height: 100%; }",
  ".figure-link:hover .figure-link__view { text-decoration: underline; }",
  ".figure-link:hover > .Polaris-ShadowBevel { box-shadow: var(--p-shadow-300); }",
  ".figure-link:focus-visible { outline: var(--p-border-width-050, 2px) solid var(--p-color-border-focus, #005bd3); outline-offset: var(--p-space-050, 2px); }",
  ".figure-link__view { color: var(--p-color-text-link, #005bd3); }",
  // Home's next steps: each action a link that reads as one, never wrapped under its words.
  ".next-step__action { color: var(--p-color-text-link, #005bd3); font-weight: var(--p-font-weight-semibold, 600); white-space: nowrap; }",
  ".next-step__action:focus-visible { outline: var(--p-border-width-050, 2px) solid var(--p-color-border-focus, #005bd3); outline-offset: 2px; }",
].join("\n");

/** The rules once per page, before the first card (so its first paint has them). */
export function FigureLinkStyles() {
  return <style dangerouslySetInnerHTML={{ __html: CSS }} />;
}

export function FigureLink(props: {
  label: string;
  value: string;
  to: string;
  view: string;
  tone?: "critical";
}) {
  const rtl = useLanguage() === "ar";
  return (
    <RemixLink to={props.to} className="figure-link">
      <Card>
        <BlockStack gap="100">
          <Text as="h3" variant="bodySm" tone="subdued">
            {props.label}
          </Text>
          <Text
            as="p"
            variant="headingXl"
            tone={props.tone === "critical" && props.value !== "0" ? "critical" : undefined}
          >
            {props.value}
          </Text>
          <InlineStack>
            <span className="figure-link__view" aria-hidden="true">
              <Text as="span" variant="bodySm">
                {`${props.view} ${rtl ? "←" : "→"}`}
              </Text>
            </span>
          </InlineStack>
        </BlockStack>
      </Card>
    </RemixLink>
  );
}
