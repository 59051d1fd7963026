// The `shopify` global each extension's modules see, as the Shopify CLI would generate it.
import "@shopify/ui-extensions";
import type { Api as BlockApi } from "@shopify/ui-extensions/admin.order-details.block.render";
import type { Api as ActionApi } from "@shopify/ui-extensions/admin.order-details.action.render";
import type { Api as PrintApi } from "@shopify/ui-extensions/admin.order-details.print-action.render";

declare global {
  // Every module runs in one target; the union names what they share, and each file uses only
  // what its target gives (the block's navigation, the action's close).
  const shopify: BlockApi & ActionApi & PrintApi;
}
