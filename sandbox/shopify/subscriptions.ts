import fs from "node:fs";
import { parse } from "smol-toml";
import { WEBHOOK_TOPICS, type WebhookTopic } from "./records";

/** The webhook subscriptions an app declares in `shopify.app.toml`, as far as the stand-in sends them. */
export interface AppSubscriptions {
  /** Subscribed topics the stand-in can send. */
  topics: WebhookTopic[];
  /** Each topic's `uri`: a path on the app, or an absolute URL. */
  path: (topic: WebhookTopic) => string;
  /** `[webhooks] api_version`, or null when the file has none. */
  apiVersion: string | null;
  /** Subscribed topics the stand-in never sends (app/uninstalled, compliance topics...). */
  unsupported: string[];
}

/**
 * Reads `[[webhooks.subscriptions]]` from an app's TOML, so the stand-in sends what Shopify would
 * send that app: only the subscribed topics, each to its declared `uri`.
 */
export function subscriptionsFromAppToml(file = "shopify.app.toml"): AppSubscriptions {
  const config = parse(fs.readFileSync(file, "utf8")) as {
    webhooks?: { api_version?: unknown; subscriptions?: { topics?: unknown; uri?: unknown }[] };
  };
  const uris = new Map<WebhookTopic, string>();
  const unsupported: string[] = [];
  for (const subscription of config.webhooks?.subscriptions ?? []) {
    const topics = Array.isArray(subscription.topics) ? subscription.topics.map(String) : [];
    for (const topic of topics) {
      if (
        (WEBHOOK_TOPICS as readonly string[]).includes(topic) &&
        typeof subscription.uri === "string"
      ) {
        uris.set(topic as WebhookTopic, subscription.uri);
      } else {
        unsupported.push(topic);
      }
    }
  }
  const apiVersion = config.webhooks?.api_version;
  return {
    topics: [...uris.keys()],
    path: (topic) => uris.get(topic) ?? `/webhooks/${topic}`,
    apiVersion: typeof apiVersion === "string" ? apiVersion : null,
    unsupported,
  };
}
