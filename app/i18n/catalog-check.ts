/**
 * Checks of the catalogs against each other and against the code, pure so the test can run them
 * on made-up input too (test/unit/i18n-catalogs.test.ts).
 */
export type Catalog = Record<string, unknown>;

/** "a.b.c" for every string leaf. */
export function leafKeys(catalog: Catalog, prefix = ""): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") keys.set(path, value);
    else if (value && typeof value === "object")
      for (const [k, v] of leafKeys(value as Catalog, path)) keys.set(k, v);
  }
  return keys;
}

/** Keys one catalog has and the other lacks, both ways, as "ar lacks settings:x.y". */
export function missingKeys(
  catalogs: Record<string, Record<string, Catalog>>,
  languages: readonly string[],
): string[] {
  const problems: string[] = [];
  const namespaces = new Set(languages.flatMap((l) => Object.keys(catalogs[l] ?? {})));
  for (const namespace of namespaces) {
    const keys = languages.map((l) => leafKeys(catalogs[l]?.[namespace] ?? {}));
    const all = new Set(keys.flatMap((k) => [...k.keys()]));
    for (const key of all)
      languages.forEach((language, i) => {
        const value = keys[i]!.get(key);
        if (value === undefined) problems.push(`${language} lacks ${namespace}:${key}`);
        else if (!value.trim()) problems.push(`${language} has an empty ${namespace}:${key}`);
      });
  }
  return problems;
}

const PLACEHOLDER = /\{\{\s*(\w+)[^}]*\}\}/g;
/** A translation must use the same {{placeholders}} as the English. */
export function placeholderMismatches(
  en: Map<string, string>,
  other: Map<string, string>,
  label: string,
): string[] {
  const names = (text: string) => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]).sort();
  const problems: string[] = [];
  for (const [key, english] of en) {
    const translated = other.get(key);
    if (translated === undefined) continue;
    if (names(english).join() !== names(translated).join())
      problems.push(
        `${label}:${key} uses {{${names(translated).join(",")}}}, English {{${names(english).join(",")}}}`,
      );
  }
  return problems;
}

export interface KeyUse {
  file: string;
  namespaces: string[];
  key: string;
  /** A template key (`states.${s}`): the part before the first ${ must lead to an object. */
  dynamic: boolean;
}

/**
 * Keys the code asks for: t("…"), t(`…`), i18nKey="…", labelKey: "…", in the namespaces the
 * file names (useTranslation("x"), useTranslation(["x","y"]), fixedT(…, "x"), tFor(…, "x")) and
 * "common".
 */
export function keysUsedIn(file: string, source: string): KeyUse[] {
  const namespaces = new Set<string>(["common"]);
  for (const m of source.matchAll(/useTranslation\(\s*(\[[^\]]*\]|"[^"]*")/g))
    for (const n of m[1]!.matchAll(/"([^"]+)"/g)) namespaces.add(n[1]!);
  for (const m of source.matchAll(/(?:fixedT|tFor)\([^,()]*(?:\([^)]*\))?[^,()]*,\s*"([^"]+)"/g))
    namespaces.add(m[1]!);
  const uses: KeyUse[] = [];
  const push = (key: string, dynamic: boolean) =>
    uses.push({ file, namespaces: [...namespaces], key, dynamic });
  for (const m of source.matchAll(/\bt\(\s*"([^"]+)"/g)) push(m[1]!, false);
  for (const m of source.matchAll(/\bt\(\s*`([^`]+)`/g)) {
    const key = m[1]!;
    if (key.includes("${")) {
      const head = key.slice(0, key.indexOf("${")).replace(/\.$/, "");
      if (head) push(head, true);
    } else push(key, false);
  }
  for (const m of source.matchAll(
    /(?:i18nKey=|labelKey:\s*|titleKey:\s*|messageKey:\s*)"([^"]+)"/g,
  ))
    push(m[1]!, false);
  return uses;
}

/** Uses whose key no namespace of the file has (in the English catalogs). */
export function unknownKeys(uses: KeyUse[], en: Record<string, Catalog>): string[] {
  const find = (namespace: string, key: string): unknown =>
    key
      .split(".")
      .reduce<unknown>(
        (node, part) => (node && typeof node === "object" ? (node as Catalog)[part] : undefined),
        en[namespace],
      );
  const problems: string[] = [];
  for (const use of uses) {
    const [ns, key] = use.key.includes(":") ? use.key.split(":", 2) : [undefined, use.key];
    const candidates = ns ? [ns] : use.namespaces;
    const found = candidates.some((namespace) => {
      const node = find(namespace, key!);
      // i18next plurals: "x" is found as "x_one"/"x_other".
      const plural = find(namespace, `${key}_other`);
      return use.dynamic
        ? !!node && typeof node === "object"
        : typeof node === "string" || typeof plural === "string";
    });
    if (!found)
      problems.push(
        `${use.file} uses "${use.key}", which no catalog of ${candidates.join(", ")} has`,
      );
  }
  return problems;
}
