import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./scratch";

/**
 * `ref` built in a scratch copy: its files from git, this tree's node_modules linked in, plus the
 * Remix Express adapter it used (this tree no longer depends on it), and a Prisma client generated
 * from its own schema: linked, the other tree ran on this tree's client and failed on a column its
 * schema did not have (issue 24). `@prisma/client` is therefore a copy (hard links) and `.prisma`
 * is generated in the scratch tree, which Node resolves from the copy's real path.
 */
export function buildBefore(
  ref: string,
  scratch: string,
  { build = true }: { build?: boolean } = {},
): string {
  const root = path.join(scratch, `before-${ref.replace(/[^\w.-]/g, "_")}`);
  fs.mkdirSync(root, { recursive: true });
  const archive = execFileSync("git", ["archive", ref], { cwd: ROOT, maxBuffer: 1 << 30 });
  execFileSync("tar", ["-x", "-C", root], { input: archive });
  const modules = path.join(root, "node_modules");
  fs.mkdirSync(path.join(modules, "@remix-run"), { recursive: true });
  const own = new Set(["@remix-run", "@prisma", ".prisma"]);
  for (const entry of fs.readdirSync(path.join(ROOT, "node_modules"))) {
    if (own.has(entry)) continue;
    fs.symlinkSync(path.join(ROOT, "node_modules", entry), path.join(modules, entry));
  }
  fs.mkdirSync(path.join(modules, "@prisma"));
  for (const entry of fs.readdirSync(path.join(ROOT, "node_modules", "@prisma"))) {
    const from = path.join(ROOT, "node_modules", "@prisma", entry);
    const to = path.join(modules, "@prisma", entry);
    if (entry === "client") execFileSync("cp", ["-al", from, to]);
    else fs.symlinkSync(from, to);
  }
  for (const entry of fs.readdirSync(path.join(ROOT, "node_modules", "@remix-run"))) {
    fs.symlinkSync(
      path.join(ROOT, "node_modules", "@remix-run", entry),
      path.join(modules, "@remix-run", entry),
    );
  }
  const uses = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  const express = uses.dependencies?.["@remix-run/express"];
  if (express && !fs.existsSync(path.join(modules, "@remix-run", "express"))) {
    const tarball = execFileSync(
      "npm",
      [
        "pack",
        `@remix-run/express@${express.replace(/^\^/, "")}`,
        "--pack-destination",
        scratch,
        "--silent",
      ],
      { cwd: scratch },
    )
      .toString()
      .trim()
      .split("\n")
      .pop()!;
    const into = path.join(modules, "@remix-run", "express");
    fs.mkdirSync(into);
    execFileSync("tar", ["-xzf", path.join(scratch, tarball), "-C", into, "--strip-components=1"]);
  }
  execFileSync(path.join(ROOT, "node_modules", ".bin", "prisma"), ["generate"], {
    cwd: root,
    stdio: "pipe",
  });
  if (fs.existsSync(path.join(root, "scripts", "pg-generate.ts"))) {
    execFileSync(process.execPath, ["--import", "tsx", path.join("scripts", "pg-generate.ts")], {
      cwd: root,
      stdio: "pipe",
    });
  }
  // Benchmarks that never start the server (sync, records) need no build: an old tree's Vite
  // configuration may not build with today's packages.
  if (build) {
    execFileSync(
      process.execPath,
      [path.join(ROOT, "node_modules", "@remix-run", "dev", "dist", "cli.js"), "vite:build"],
      { cwd: root, stdio: "pipe" },
    );
  }
  return root;
}
