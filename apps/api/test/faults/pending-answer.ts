/**
 * A request under way, as the kill tests watch it: `answer` is what the client finally got (the
 * status and the start of the body, or why none came), `settled()` that text once it has come.
 */
export function pendingAnswer(request: () => Promise<Response>) {
  let settled: string | null = null;
  const answer = request().then(
    async (response) => {
      settled = `HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`;
      return settled;
    },
    (error: Error) => {
      settled = `no response (${error.message}${error.cause ? `: ${(error.cause as Error).message}` : ""})`;
      return settled;
    },
  );
  return { answer, settled: () => settled };
}
