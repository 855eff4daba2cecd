// Builds dist/: tsc emits JavaScript and .d.ts for the SDK and, through tsconfig.build.json's
// `paths`, the contract files it imports (the contract is bundled, not a runtime dependency).
// The sources use bundler-style specifiers (`./client`, `@allot/contract/routes`) that Node's ESM
// loader cannot resolve, so each emitted specifier is then rewritten to a relative `.js` path.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// Built beside dist, then swapped in: a test (or a second build) never sees a half-written dist.
const dist = join(root, "node_modules", `.dist-building-${process.pid}`);
const contract = join(dist, "contract", "src");

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
try {
  execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json"), "--outDir", dist], {
    stdio: "inherit",
  });
} catch (error) {
  rmSync(dist, { recursive: true, force: true });
  throw error;
}

// Statements at the start of a line (so comments are left alone), and `import("…")` types in .d.ts.
const SPECIFIERS = [
  /^((?:import|export)\s[^;]*?\bfrom\s*|import\s+)(["'])([^"']+)\2/gm,
  /(\bimport\(\s*)(["'])([^"']+)\2/g,
];

function rewrite(file, specifier) {
  let target;
  if (specifier.startsWith("@allot/contract/"))
    target = join(contract, specifier.slice("@allot/contract/".length));
  else if (specifier.startsWith(".")) target = resolve(dirname(file), specifier);
  else if (specifier.startsWith("@allot/")) throw new Error(`${file}: cannot bundle ${specifier}`);
  else return specifier;
  const candidates = [`${target}.js`, join(target, "index.js")];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`${file}: ${specifier} resolves to no emitted file`);
  const path = relative(dirname(file), found).split(sep).join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

function* emitted(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* emitted(path);
    else if (path.endsWith(".js") || path.endsWith(".d.ts")) yield path;
  }
}

for (const file of emitted(dist)) {
  const source = readFileSync(file, "utf8");
  const output = SPECIFIERS.reduce(
    (text, pattern) =>
      text.replace(
        pattern,
        (_, keyword, quote, specifier) => `${keyword}${quote}${rewrite(file, specifier)}${quote}`,
      ),
    source,
  );
  if (output !== source) writeFileSync(file, output);
}

rmSync(join(root, "dist"), { recursive: true, force: true });
renameSync(dist, join(root, "dist"));
