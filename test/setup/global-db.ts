import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT, TEMPLATE_DB, TEST_DATA_DIR } from "../support/paths";

/** Migrates one template database with the real Prisma CLI; test files copy it. */
export default function setup() {
  // Both test projects list this file; the template is made once per run.
  if (process.env.TEST_TEMPLATE_DB_READY === TEMPLATE_DB) return;
  process.env.TEST_TEMPLATE_DB_READY = TEMPLATE_DB;
  fs.rmSync(TEST_DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(TEST_DATA_DIR, { recursive: true });
  execFileSync(path.join(ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `file:${TEMPLATE_DB}` },
    stdio: "pipe",
  });
  return () => fs.rmSync(TEST_DATA_DIR, { recursive: true, force: true });
}
