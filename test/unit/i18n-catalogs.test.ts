import fs from "node:fs";
import path from "node:path";
import en from "@shopify/polaris/locales/en.json";
import { describe, expect, it } from "vitest";
import {
  keysUsedIn,
  leafKeys,
  missingKeys,
  placeholderMismatches,
  unknownKeys,
  type Catalog,
} from "../../app/i18n/catalog-check";
import { LANGUAGES, resources } from "../../app/i18n/config";
import polarisAr from "../../app/i18n/polaris-ar.json";
import { ROOT } from "../support/paths";

const catalogs = resources as Record<string, Record<string, Catalog>>;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.|catalog-check/.test(entry.name) ? [full] : [];
  });
}

// Words that stay as they are in Arabic: names of things, not sentences.
const SAME_IN_BOTH = new Set([
  "common:language.names.en",
  "common:language.names.ar",
  "errors:otherLanguage",
  "tracking:languageName.en",
  "tracking:languageName.ar",
]);

describe("the English and Arabic catalogs", () => {
  it("have every key in both languages, none empty", () => {
    expect(missingKeys(catalogs, LANGUAGES)).toEqual([]);
  });

  it("would report a key one language lacks", () => {
    const problems = missingKeys(
      { en: { demo: { a: "A", b: { c: "C" } } }, ar: { demo: { a: "أ" } } },
      ["en", "ar"],
    );
    expect(problems).toEqual(["ar lacks demo:b.c"]);
  });

  it("use the same placeholders in Arabic as in English", () => {
    const problems = Object.keys(catalogs.en!).flatMap((namespace) =>
      placeholderMismatches(
        leafKeys(catalogs.en![namespace]!),
        leafKeys(catalogs.ar?.[namespace] ?? {}),
        namespace,
      ),
    );
    expect(problems).toEqual([]);
  });

  it("have no English sentence left in the Arabic catalog", () => {
    const untranslated: string[] = [];
    for (const namespace of Object.keys(catalogs.ar!)) {
      const english = leafKeys(catalogs.en?.[namespace] ?? {});
      for (const [key, value] of leafKeys(catalogs.ar![namespace]!)) {
        const id = `${namespace}:${key}`;
        if (SAME_IN_BOTH.has(id)) continue;
        // Arabic text is Arabic: a value with no Arabic letter is English (or a placeholder only).
        const words = value.replace(/\{\{[^}]*\}\}/g, "").replace(/<\/?\w+>/g, "");
        if (/[A-Za-z]{3,}/.test(words) && !/[\u0600-\u06FF]/.test(words)) untranslated.push(id);
        if (english.get(key) === value && /[A-Za-z]/.test(words)) untranslated.push(id);
      }
    }
    expect(untranslated).toEqual([]);
  });

  it("have every key the code uses", () => {
    const uses = sourceFiles(path.join(ROOT, "app")).flatMap((file) =>
      keysUsedIn(path.relative(ROOT, file), fs.readFileSync(file, "utf8")),
    );
    expect(uses.length).toBeGreaterThan(10);
    expect(unknownKeys(uses, catalogs.en!)).toEqual([]);
  });

  it("would report a key the code uses and no catalog has", () => {
    const uses = keysUsedIn(
      "app/routes/demo.tsx",
      'const { t } = useTranslation("settings"); t("title"); t("nav.home"); t("nope.gone"); t(`states.${s}`); t(`missing.${x}`);',
    );
    expect(
      unknownKeys(uses, {
        common: { nav: { home: "Home" }, states: { a: "A" } },
        settings: { title: "T" },
      }),
    ).toEqual([
      'app/routes/demo.tsx uses "nope.gone", which no catalog of common, settings has',
      'app/routes/demo.tsx uses "missing", which no catalog of common, settings has',
    ]);
  });
});

describe("Polaris's own words in Arabic", () => {
  const english = leafKeys(en);
  const arabic = leafKeys(polarisAr);

  it("translates only keys Polaris has, with its placeholders", () => {
    expect([...arabic.keys()].filter((key) => !english.has(key))).toEqual([]);
    const placeholders = (text: string) =>
      [...text.matchAll(/\{(\w+)\}/g)]
        .map((m) => m[1])
        .sort()
        .join();
    const mismatched = [...arabic].filter(
      ([key, value]) => placeholders(value) !== placeholders(english.get(key) ?? ""),
    );
    expect(mismatched).toEqual([]);
  });

  it.each([
    "Common",
    "Pagination",
    "IndexTable",
    "IndexFilters",
    "IndexProvider",
    "Filters",
    "Tabs",
    "Modal",
    "Banner",
    "Badge",
    "ContextualSaveBar",
    "DiscardConfirmationModal",
    "DatePicker",
    "Page",
    "Button",
    "ActionMenu",
    "ResourceList",
    "TextField",
  ])("translates every word of %s", (component) => {
    const prefix = `Polaris.${component}.`;
    const lacking = [...english.keys()].filter((key) => key.startsWith(prefix) && !arabic.has(key));
    expect(lacking).toEqual([]);
  });
});
