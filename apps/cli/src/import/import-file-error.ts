import { UsageError } from "../output";

/** One thing wrong with an import file; `line` is 1-based, null when the whole file is at fault. */
export interface FileProblem {
  line: number | null;
  message: string;
}

/** A value that cannot be read; the parser that catches it adds the line. */
export class ValueProblem extends Error {}

// Enough to fix a file by; a wrong --map or --date-format would otherwise print every line.
const SHOWN_PROBLEMS = 20;

/**
 * An import file that cannot be sent, with every problem found (the whole file is read before the
 * first request, so a bad line never leaves half a file imported).
 */
export class ImportFileError extends UsageError {
  constructor(file: string, problems: readonly FileProblem[]) {
    const shown = problems.slice(0, SHOWN_PROBLEMS).map((p) => `  ${where(file, p.line)}: ${p.message}`);
    const more = problems.length - shown.length;
    super(
      [
        `${file}: ${problems.length === 1 ? "1 problem" : `${problems.length} problems`}, nothing was sent:`,
        ...shown,
        ...(more > 0 ? [`  … and ${more} more`] : []),
      ].join("\n"),
      "invalid_file",
      { file, problems },
    );
  }
}

const where = (file: string, line: number | null) => (line === null ? file : `line ${line}`);

/** Collects problems while a parser reads on; `throwIfAny` ends the parse when there were some. */
export class ProblemList {
  readonly problems: FileProblem[] = [];

  add(line: number | null, message: string): void {
    this.problems.push({ line, message });
  }

  /** Runs `read`; a ValueProblem it throws is recorded against `line` and gives undefined. */
  at<T>(line: number, read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ValueProblem)) throw error;
      this.add(line, error.message);
      return undefined;
    }
  }

  throwIfAny(file: string): void {
    if (this.problems.length > 0) throw new ImportFileError(file, this.problems);
  }
}
