/** What a line may take when stdout is not a terminal (a pipe, a file, a test): the classic 80. */
const NOT_A_TERMINAL = 80;

/** The columns a line printed on stdout may take: the terminal's width, or 80 when it is not one. */
export function stdoutWidth(): number {
  if (!process.stdout.isTTY) return NOT_A_TERMINAL;
  const columns = process.stdout.columns;
  return columns !== undefined && columns > 0 ? columns : NOT_A_TERMINAL;
}
