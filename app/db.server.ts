import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@prisma/client";
import { sqliteFilePath } from "./db/sqlite-path";
import { env } from "./env.server";

declare global {
  // Survives Vite's module reloads in development so that one connection is kept.
  var __prisma: PrismaClient | undefined;
}

function createClient(): PrismaClient {
  const adapter = new PrismaBetterSQLite3({ url: sqliteFilePath(env().DATABASE_URL) });
  return new PrismaClient({ adapter });
}

const prisma: PrismaClient = globalThis.__prisma ?? createClient();
if (env().NODE_ENV !== "production") globalThis.__prisma = prisma;

export default prisma;
