import { createInterface } from "node:readline";
import { UsageError } from "./output";

/**
 * A password the user types (not echoed) when stdin is a terminal; otherwise the first line of
 * stdin, so scripts can pipe it in (`printf '%s\n' "$PW" | allot login …`).
 */
export function readPassword(prompt = "Password: "): Promise<string> {
  return process.stdin.isTTY ? promptHidden(prompt) : readFirstLine();
}

function readFirstLine(): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: process.stdin, terminal: false });
    let answered = false;
    lines.once("line", (line) => {
      answered = true;
      lines.close();
      resolve(line);
    });
    lines.once("close", () => {
      if (!answered) reject(new UsageError("No password given: pass --password or write it on stdin."));
    });
  });
}

function promptHidden(prompt: string): Promise<string> {
  const { stdin, stderr } = process;
  return new Promise((resolve, reject) => {
    let password = "";
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      stderr.write("\n");
      if (error) reject(error);
      else resolve(password);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString("utf8")) {
        if (char === "\r" || char === "\n" || char === "\u0004") return finish();
        if (char === "\u0003") return finish(new UsageError("Cancelled.", "cancelled"));
        if (char === "\u007f" || char === "\b") password = Array.from(password).slice(0, -1).join("");
        else if (char >= " ") password += char;
      }
    };
    stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on("data", onData);
  });
}
