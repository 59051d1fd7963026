import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The app's layers (docs/pipeline.md, ADR 0055), top to bottom. A folder imports only folders of
 * the layers below its own; `npm run lint` fails on an import upwards and on any import cycle in
 * app/. No exceptions: the pure core is on the ground floor, so every layer may import it.
 *
 *   routes                                 Remix routes, thin
 *   pages, extension-api, labels, components  what a page or an extension shows (request)
 *   actions                                what a request does to deliveries (request)
 *   pipeline, shopper, checkout            the worker; the shopper's side; checkout rates
 *   services                               what the layers above share (courier, Shopify access)
 *   models                                 the data, per aggregate; read/ for pages
 *   db                                     the database connection
 *   domain, addresses, courier, whatsapp, shopify, security, i18n, api-contract   leaves: pure, or I/O
 *                                          that knows nothing of the app (HTTP, crypto)
 */
const LAYERS = [
  ["routes"],
  ["pages", "extension-api", "labels", "components"],
  ["actions"],
  ["pipeline", "shopper", "checkout"],
  ["services"],
  ["models"],
  ["db", "db.server"],
];
const LEAVES = ["courier", "whatsapp", "addresses", "shopify", "security", "i18n", "api-contract"];
const folderPattern = (folders) => ({
  regex: `^(\\.\\./)+(${folders.map((f) => f.replace(".", "\\.")).join("|")})(/|$)`,
  message: "A layer imports only the layers below it (eslint.config.js, ADR 0055).",
});
const processGlobals = {
  regex: "^(\\.\\./)+(db\\.server|shopify\\.server|entry\\.server|env\\.server)$",
  message: "A leaf module takes what it needs as arguments, not from the process's globals.",
};
const everythingAbove = (index) => LAYERS.slice(0, index).flat();
/** Each folder's restrictions, gathered first: in a flat config the last rule set for a file wins. */
const restricted = new Map();
const restrict = (folders, ...patterns) => {
  for (const folder of folders)
    restricted.set(folder, [...(restricted.get(folder) ?? []), ...patterns]);
};
LAYERS.forEach((folders, index) => {
  if (index > 0) restrict(folders, folderPattern(everythingAbove(index)));
});
restrict(LEAVES, folderPattern(LAYERS.flat()), processGlobals);
// The matcher, the courier's and WhatsApp's clients and the crypto know nothing of the app's rules
// either.
restrict(
  ["addresses", "courier", "whatsapp", "security"],
  folderPattern(["domain", "shopify", "i18n"]),
);
// The ground floor: pure rules, importing only the other pure leaves (the matcher and the
// courier's wire formats), never a module with I/O.
restrict(
  ["domain"],
  folderPattern([...LAYERS.flat(), "shopify", "security", "i18n", "api-contract"]),
  processGlobals,
  {
    regex:
      "\\.server$|^(\\.\\./)+courier(/(client|transport|master-data|push|reply))?$|^(\\.\\./)+whatsapp(/client)?$",
    message: "domain/ is pure: no I/O module (only addresses/ and the courier's wire formats).",
  },
);
const layers = [...restricted].map(([folder, patterns]) => ({
  files: [`app/${folder}/**`],
  rules: { "no-restricted-imports": ["error", { patterns }] },
}));

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "node_modules/**",
      "data/**",
      "test-results/**",
      "public/build/**",
      ".cache/**",
      // shopify app build's bundles of the UI extensions
      "extensions/*/dist/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js"] })],
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  ...layers,
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ["sandbox/shopify/*.js"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Browser tests open and reload pages through test/support/browser.ts's gotoReady and
    // reloadReady, which wait for React's hydration before a page is checked or photographed.
    files: ["test/browser/**", "test/security/**", "test/support/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name=/^(goto|reload)$/]",
          message:
            "Open pages with gotoReady or reloadReady (test/support/browser.ts): they wait for hydration.",
        },
      ],
    },
  },
  {
    // Command-line tools, benchmarks and tests print to stdout by design.
    files: ["scripts/**", "bench/**", "sandbox/**", "test/**", ".ci/**"],
    rules: { "no-console": "off" },
  },
);
