import { styleText } from "node:util";
import { colourEnv } from "../env";

/**
 * Whether stdout gets colour: FORCE_COLOR decides when set (0 is off); otherwise a terminal that
 * supports it, where tty's hasColors() already honours NO_COLOR.
 */
export function stdoutHasColour(env: NodeJS.ProcessEnv = colourEnv()): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "") return env.FORCE_COLOR !== "0";
  return Boolean(process.stdout.isTTY && process.stdout.hasColors?.(env));
}

// The caller has decided on colour already: styleText must not check the stream again.
export const red = (text: string) => styleText("red", text, { validateStream: false });
