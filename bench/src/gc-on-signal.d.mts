/** Where a process's memory after its collection is written (process-memory.ts reads it). */
export declare const liveMemoryFile: (pid: number) => string;
