import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The app's layers (docs/pipeline.md): routes → deliveries → services → models → db. A layer
 * imports only those below it; deliveries/domain/ (pure rules) and the leaf folders courier/,
 * addresses/, shopify/, security/ import nothing of the app above them. An import that breaks
 * this fails `npm run lint`, as does any import cycle in app/.
 */
const above = (...folders) => ({
  regex: `^(\\.\\./)+(${folders.join("|")})(/|$)`,
  message: "A lower layer imports nothing of the layers above it (docs/pipeline.md, Layers).",
});
const notDomain = {
  regex: "^(\\.\\./)+deliveries/(?!domain/)",
  message: "Below deliveries/, only its pure rules (deliveries/domain/) may be imported.",
};
const processGlobals = {
  regex: "^(\\.\\./)+(db\\.server|shopify\\.server|entry\\.server|env\\.server)$",
  message: "A leaf module takes what it needs as arguments, not from the process's globals.",
};
const layers = [
  {
    files: ["app/deliveries/domain/**"],
    patterns: [
      above("routes", "models", "services", "db", "shopify"),
      processGlobals,
      {
        regex:
          "\\.server$|^\\.\\./[^.]|^\\.\\./\\.\\./courier$|courier/(client|master-data|transport)$",
        message:
          "deliveries/domain/ is pure: no I/O module, no other part of deliveries/ (only addresses/ and the courier's pure formats).",
      },
    ],
  },
  {
    // records/ (the courier's records and the Flow outbox, run by the worker) sits beside deliveries/.
    files: ["app/deliveries/**", "app/records/**"],
    ignores: ["app/deliveries/domain/**"],
    patterns: [above("routes")],
  },
  { files: ["app/services/**"], patterns: [above("routes", "records"), notDomain] },
  { files: ["app/models/**"], patterns: [above("routes", "services", "records"), notDomain] },
  {
    // Issue 16's pure rules: money in fils, statements, CSV, Flow payloads (no I/O).
    files: ["app/money/**", "app/settlements/**", "app/exports/**", "app/flow/**"],
    patterns: [
      above("routes", "records", "services", "models", "db", "shopify"),
      notDomain,
      processGlobals,
      { regex: "\\.server$", message: "A pure module imports no .server module." },
    ],
  },
  {
    files: ["app/courier/**", "app/addresses/**", "app/security/**"],
    patterns: [above("routes", "deliveries", "services", "models", "shopify"), processGlobals],
  },
  {
    files: ["app/shopify/**"],
    patterns: [above("routes", "services", "models"), notDomain, processGlobals],
  },
].map(({ files, ignores, patterns }) => ({
  files,
  ...(ignores ? { ignores } : {}),
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
    // Command-line tools, benchmarks and tests print to stdout by design.
    files: ["scripts/**", "bench/**", "sandbox/**", "test/**", ".ci/**"],
    rules: { "no-console": "off" },
  },
);
