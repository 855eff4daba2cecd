import cliProgress from "cli-progress";

export interface Progress {
  update(rows: number): void;
  stop(): void;
}

// Small files finish before a bar would be read.
const MIN_ROWS = 1_000;
const silent: Progress = { update() {}, stop() {} };

/** A bar of rows sent, on stderr, only for a person watching (stderr a terminal) and a large file. */
export function startProgress(total: number): Progress {
  if (!process.stderr.isTTY || total < MIN_ROWS) return silent;
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: "importing [{bar}] {value}/{total} rows | {eta_formatted} left",
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    update: (rows) => bar.update(rows),
    stop: () => bar.stop(),
  };
}
