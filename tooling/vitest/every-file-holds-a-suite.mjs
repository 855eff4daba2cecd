// The README's `pnpm test` as a newcomer runs it: PGlite alone, no DATABASE_URL, no TEST_REDIS_URL.
// A test file whose every suite needs a server holds no suite there, and vitest fails it ("No test
// suite found in file"), while CI, which sets both, never sees it. This collects every test file
// (nothing runs) without those variables and names each file that would hold no suite. A suite that
// needs a server is declared with describeOnPostgres / describeOnServer: skipped, saying why.
import { fileURLToPath } from "node:url";
import { createVitest } from "vitest/node";

for (const name of ["DATABASE_URL", "TEST_REDIS_URL"]) delete process.env[name];

const vitest = await createVitest("test", {
  root: fileURLToPath(new URL("../..", import.meta.url)),
  watch: false,
  // Collection runs no hook and no test: no bundle, snapshot or template is needed, and one
  // worker may keep the modules it imported from file to file.
  globalSetup: [],
  isolate: false,
});
try {
  const { testModules, unhandledErrors } = await vitest.collect();
  const problems = testModules.flatMap((module) => {
    const errors = module.errors().map((error) => error.message);
    if (errors.length) return [`${module.relativeModuleId}: ${errors.join("; ")}`];
    if (module.children.size === 0)
      return [
        `${module.relativeModuleId}: no suite without DATABASE_URL (declare it with describeOnPostgres)`,
      ];
    return [];
  });
  for (const problem of [...problems, ...unhandledErrors]) console.error(problem);
  if (problems.length || unhandledErrors.length) process.exitCode = 1;
  else console.log(`Every test file holds a suite on PGlite alone (${testModules.length} files).`);
} finally {
  await vitest.close();
}
