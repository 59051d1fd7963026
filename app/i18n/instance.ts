import i18next, { type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { i18nOptions, type Language } from "./config";

/** An i18next instance for one render (the server makes one per request, the browser one). */
export function createI18n(language: Language): I18n {
  const instance = i18next.createInstance();
  // Every catalog is already in memory: init finishes before it returns.
  void instance
    .use(initReactI18next)
    .init({ ...i18nOptions, lng: language, initImmediate: false, react: { useSuspense: false } });
  return instance;
}

let shared: I18n | undefined;
/** Words outside React (meta titles, a thrown Response's body), in a given language. */
export function tFor(language: Language, namespace = "common") {
  shared ??= createI18n(language);
  return shared.getFixedT(language, namespace);
}
