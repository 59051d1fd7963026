import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
/**
 * This run's scratch folder. The global setup names it once (per process id) and the workers,
 * started after it, inherit the name: two runs at once never share or delete each other's files.
 */
process.env.TEST_RUN_DIR ??= path.join(ROOT, "data", "test", `run-${process.pid}`);
export const TEST_DATA_DIR = process.env.TEST_RUN_DIR;
/** Migrated once per run by test/setup/global-db.ts; each test file gets a copy. */
export const TEMPLATE_DB = path.join(TEST_DATA_DIR, "template.sqlite");
export const ARTIFACTS_DIR = path.join(ROOT, "test-results");
