import { readNotice, type Notice } from "../domain/notices";
import { fixedT } from "../i18n/i18next.server";
import { STATE_LABELS } from "../domain/states";

/**
 * A notice's English sentence (ADR 0045), for what is not a page of the app: the server's logs,
 * a timeline entry's English record, the admin extensions' API (their own locales show it as
 * the app's words) and Shopify Flow.
 */
export async function noticeInEnglish(value: Notice): Promise<string> {
  const t = await fixedT("en", "notices");
  const { code, params } = readNotice(value);
  const words = Object.fromEntries(
    Object.entries(params).map(([name, raw]) => [
      name,
      name === "state" ? (STATE_LABELS[raw as keyof typeof STATE_LABELS] ?? String(raw)) : raw,
    ]),
  );
  return t(code, words);
}

type English<T> = {
  [K in keyof T]: K extends "error" | "message" ? (T[K] extends Notice ? string : T[K]) : T[K];
};

/** An outcome with its `error` or `message` notice in English, for the extensions' API. */
export async function outcomeInEnglish<T extends object>(outcome: T): Promise<English<T>> {
  const copy: Record<string, unknown> = { ...(outcome as Record<string, unknown>) };
  for (const field of ["error", "message"]) {
    const value = copy[field];
    if (value && typeof value === "object") copy[field] = await noticeInEnglish(value as Notice);
  }
  return copy as English<T>;
}
