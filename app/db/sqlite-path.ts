import fs from "node:fs";
import path from "node:path";

export const DEFAULT_DATABASE_URL = "file:./data/app.sqlite";

/**
 * The file path of a `file:` SQLite URL, relative to the working directory, with its folder
 * created. Prisma's own CLI and the app resolve it the same way through this function.
 */
export function sqliteFilePath(databaseUrl: string | undefined): string {
  const url = databaseUrl?.trim() || DEFAULT_DATABASE_URL;
  if (!url.startsWith("file:")) {
    throw new Error(`DATABASE_URL must be a SQLite file URL such as "${DEFAULT_DATABASE_URL}"`);
  }
  const file = path.resolve(url.slice("file:".length).replace(/\?.*$/, ""));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}
