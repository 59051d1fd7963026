import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";
import { ROOT } from "./paths";

let cached: GraphQLSchema | undefined;

/**
 * Shopify's real Admin GraphQL schema of the app's API version: the introspection that
 * @shopify/dev-mcp ships (no network needed).
 */
export function realAdminSchema(): GraphQLSchema {
  if (cached) return cached;
  const file = path.join(
    ROOT,
    "node_modules",
    "@shopify",
    "dev-mcp",
    "dist",
    "data",
    `admin_${ADMIN_API_VERSION}.json.gz`,
  );
  const introspection = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString("utf8")) as {
    data: IntrospectionQuery;
  };
  cached = buildClientSchema(introspection.data);
  return cached;
}
