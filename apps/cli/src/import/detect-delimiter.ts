const CANDIDATES = [",", ";", "\t", "|"] as const;

/**
 * The field delimiter of a CSV file, from its header line: the candidate seen most often outside
 * quotes (European exports use ";", some banks tab). A comma when none appears.
 */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map<string, number>(CANDIDATES.map((c) => [c, 0]));
  let quoted = false;
  for (const char of headerLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ",";
  for (const [char, count] of counts) if (count > (counts.get(best) ?? 0)) best = char;
  return best;
}
