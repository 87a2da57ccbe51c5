// `tsc -p tsconfig.json` (checkJs, noEmit) over the site's JavaScript, failing on every error but the ones listed in
// KNOWN: errors in files another change is rewriting, each to be fixed there. A listed error that tsc no longer
// reports fails too, so the list cannot outlive its reason.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

/** @type {string[]} */
const KNOWN = [];

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], { encoding: "utf8" });
if (run.error || (run.status !== 0 && !/error TS\d+/.test(run.stdout))) {
  process.stderr.write(run.stdout + run.stderr);
  process.exit(run.status || 1);
}
const errors = run.stdout.split("\n").filter((line) => /error TS\d+/.test(line));
const keyOf = (line) => {
  const m = /^(.+?)\(\d+,\d+\): error (TS\d+)/.exec(line);
  return m ? `${m[1]}: ${m[2]}` : line;
};
const unknown = errors.filter((line) => !KNOWN.includes(keyOf(line)));
const gone = KNOWN.filter((key) => !errors.some((line) => keyOf(line) === key));
for (const line of errors.filter((l) => KNOWN.includes(keyOf(l)))) console.warn(`known, to be fixed where it is: ${line}`);
for (const line of unknown) console.error(line);
for (const key of gone) console.error(`no longer reported, remove it from KNOWN in scripts/typecheck.mjs: ${key}`);
process.exit(unknown.length || gone.length ? 1 : 0);
