import { BlockStack, Box, Divider, InlineGrid, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

/**
 * What Polaris's Layout.AnnotatedSection shows (a title and description beside the card from a
 * tablet's width, above it on a phone, a line between sections), from stacks and a grid. Polaris's
 * Layout pulls itself 16 px past the page's left edge with a negative margin: on a phone, where the
 * page has no padding, that edge is off the screen, and in right to left it scrolls sideways.
 */
export function AnnotatedSection(props: {
  title: string;
  description?: string;
  /** The first section of a page has no line above it. */
  first?: boolean;
  children: ReactNode;
}) {
  return (
    <BlockStack gap="400">
      {!props.first && <Divider borderColor="border-secondary" />}
      <InlineGrid columns={{ xs: 1, md: ["oneThird", "twoThirds"] }} gap="400">
        <Box paddingInline={{ xs: "400", sm: "0" }}>
          <BlockStack gap="200">
            <Text as="h2" variant="headingMd">
              {props.title}
            </Text>
            {props.description && (
              <Text as="p" variant="bodyMd" tone="subdued">
                {props.description}
              </Text>
            )}
          </BlockStack>
        </Box>
        <Box minWidth="0">{props.children}</Box>
      </InlineGrid>
    </BlockStack>
  );
}
