import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { DEFAULT_LANGUAGE, languageOf } from "./i18n/config";
import { createI18n } from "./i18n/instance";

// The server rendered the page in the language on <html lang>; hydration starts in the same one,
// and the root's useChangeLanguage follows the loaders from then on (ADR 0040).
const i18n = createI18n(languageOf(document.documentElement.lang) ?? DEFAULT_LANGUAGE);

startTransition(() => {
  hydrateRoot(
    document,
    <I18nextProvider i18n={i18n}>
      <StrictMode>
        <RemixBrowser />
      </StrictMode>
    </I18nextProvider>,
  );
});
