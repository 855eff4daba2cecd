/** One JSON line per event: stdout, or stderr when it reports a failure. */
export function logLine<Entry extends { status?: string }>(entry: Entry): void {
  const line = JSON.stringify({ time: new Date().toISOString(), ...entry });
  if (entry.status === "failed") console.error(line);
  else console.log(line);
}
