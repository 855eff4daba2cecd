import { ZxcvbnFactory, type ZxcvbnResult } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary as commonDictionary } from "@zxcvbn-ts/language-common";
import { dictionary as englishDictionary, translations } from "@zxcvbn-ts/language-en";

/** docs/spec/operations.md: a new password must score at least 2 on zxcvbn's 0–4 scale. */
export const MIN_PASSWORD_SCORE = 2;

// Loading the dictionaries takes a moment and some memory: done once, on first use.
let factory: ZxcvbnFactory | undefined;
const estimator = () => {
  factory ??= new ZxcvbnFactory({
    translations,
    graphs: adjacencyGraphs,
    dictionary: { ...commonDictionary, ...englishDictionary },
    // The check runs on the server, synchronously: with the defaults (256 characters, 100 l33t
    // substitutions) a crafted 50-character password took 2 s and 300 ones of "1" took 6 s here.
    // Past 100 characters a password is strong anyway; 2 substitutions still catch "p@ssw0rd".
    maxLength: 100,
    l33tMaxSubstitutions: 2,
  });
  return factory;
};

/** What the user knows about themselves is the first thing an attacker tries: email, its parts, names. */
export function personalWords(user: { email: string; username: string; name: string }): string[] {
  const words = new Set<string>();
  for (const value of [user.email, user.username, user.name]) {
    const trimmed = value.trim().toLowerCase();
    if (!trimmed) continue;
    words.add(trimmed);
    for (const part of trimmed.split(/[@.+\-_\s]+/)) if (part.length >= 3) words.add(part);
  }
  return [...words];
}

/**
 * Null when the password is strong enough; otherwise a message saying why and what would help,
 * from zxcvbn's own feedback.
 */
export function passwordWeakness(password: string, userInputs: string[]): string | null {
  const result: ZxcvbnResult = estimator().check(password, userInputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const { warning, suggestions } = result.feedback;
  return [
    "This password is too easy to guess.",
    ...(warning ? [warning] : []),
    ...(suggestions.length ? suggestions : ["Add more words that are less common."]),
  ].join(" ");
}
