import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const TEST_DATA_DIR = path.join(ROOT, "data", "test");
/** Migrated once per run by test/setup/global-db.ts; each test file gets a copy. */
export const TEMPLATE_DB = path.join(TEST_DATA_DIR, "template.sqlite");
export const ARTIFACTS_DIR = path.join(ROOT, "test-results");
