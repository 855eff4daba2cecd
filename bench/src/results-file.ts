import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { SCENARIO_GROUPS, type ScenarioGroup } from "./env";

const MARKER = /^<!-- bench: ([a-z]+) -->\n/m;

/**
 * Writes this run's sections into the results file, keeping the sections of scenarios this run
 * left out (`pnpm bench funding` does not erase the lists' figures). Each section starts with an
 * HTML comment naming its scenario group, invisible in rendered markdown. A file written before
 * there were sections holds the lists only.
 */
export async function writeResults(file: string, sections: Partial<Record<ScenarioGroup, string>>) {
  const kept = parseSections(await readFile(file, "utf8").catch(() => ""));
  const text = SCENARIO_GROUPS.flatMap((group) => {
    const body = sections[group] ?? kept[group];
    return body ? [`<!-- bench: ${group} -->\n${body.trimEnd()}\n`] : [];
  }).join("\n");
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

function parseSections(text: string): Partial<Record<ScenarioGroup, string>> {
  if (!MARKER.test(text)) return text.trim() ? { lists: text } : {};
  const parts = text.split(new RegExp(MARKER.source, "m"));
  const sections: Partial<Record<ScenarioGroup, string>> = {};
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const group = parts[i] as ScenarioGroup;
    if (SCENARIO_GROUPS.includes(group)) sections[group] = parts[i + 1];
  }
  return sections;
}
