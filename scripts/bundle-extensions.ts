import { readdirSync, readFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { parse } from "smol-toml";

/**
 * Bundles each admin extension as Shopify's CLI does (esbuild, minified, Preact for JSX) and
 * checks it against Shopify's limit of 64 KB per extension: prints each size and exits 1 when
 * one is over. `--out <dir>` keeps the bundles (the browser test loads them); `--limit <bytes>`
 * sets another limit.
 */
export const SHOPIFY_LIMIT_BYTES = 64 * 1024;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const EXTENSIONS = path.join(ROOT, "extensions");

export interface ExtensionBundle {
  handle: string;
  bytes: number;
  modules: { module: string; target: string[]; bytes: number; code: string }[];
}

export async function bundleExtensions(): Promise<ExtensionBundle[]> {
  const bundles: ExtensionBundle[] = [];
  for (const dir of readdirSync(EXTENSIONS).sort()) {
    const tomlPath = path.join(EXTENSIONS, dir, "shopify.extension.toml");
    if (!existsSync(tomlPath)) continue;
    const toml = parse(readFileSync(tomlPath, "utf8")) as {
      extensions: { handle: string; targeting?: { module: string; target: string }[] }[];
    };
    for (const extension of toml.extensions) {
      // Flow triggers and actions (issue 16) are configuration only: no code to bundle.
      if (!extension.targeting) continue;
      const targetsOf = new Map<string, string[]>();
      for (const t of extension.targeting ?? []) {
        targetsOf.set(t.module, [...(targetsOf.get(t.module) ?? []), t.target]);
      }
      const modules = [];
      for (const [module, target] of targetsOf) {
        const result = await build({
          entryPoints: [path.join(EXTENSIONS, dir, module)],
          bundle: true,
          minify: true,
          format: "esm",
          target: "es2020",
          write: false,
          jsx: "automatic",
          jsxImportSource: "preact",
          alias: { react: "preact/compat", "react-dom": "preact/compat" },
          legalComments: "none",
          logLevel: "silent",
        });
        const code = result.outputFiles[0]!.text;
        modules.push({ module, target, bytes: Buffer.byteLength(code), code });
      }
      bundles.push({
        handle: extension.handle,
        bytes: modules.reduce((sum, m) => sum + m.bytes, 0),
        modules,
      });
    }
  }
  return bundles;
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const limit = Number(option("--limit") ?? SHOPIFY_LIMIT_BYTES);
  const out = option("--out");
  const bundles = await bundleExtensions();
  let over = 0;
  for (const bundle of bundles) {
    const verdict = bundle.bytes > limit ? "OVER THE LIMIT" : "ok";
    if (bundle.bytes > limit) over++;
    console.log(
      `${bundle.handle.padEnd(28)} ${(bundle.bytes / 1024).toFixed(1).padStart(6)} KB of ${(limit / 1024).toFixed(0)} KB  ${verdict}`,
    );
    for (const m of bundle.modules) {
      console.log(
        `  ${m.module.padEnd(28)} ${(m.bytes / 1024).toFixed(1).padStart(6)} KB  ${m.target.join(", ")}`,
      );
      if (out) {
        const file = path.join(
          out,
          bundle.handle,
          path.basename(m.module).replace(/\.tsx?$/, ".js"),
        );
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, m.code);
      }
    }
  }
  console.log(
    JSON.stringify({
      limitBytes: limit,
      extensions: Object.fromEntries(bundles.map((b) => [b.handle, b.bytes])),
      overLimit: over,
    }),
  );
  if (over > 0) {
    console.error(`${over} extension(s) over ${limit} bytes: Shopify refuses to deploy them.`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
