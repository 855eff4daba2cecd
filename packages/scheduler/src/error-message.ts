/** The text a log line carries for a thrown value. */
export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
