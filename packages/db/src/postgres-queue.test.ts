import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * postgres.js's pool keeps its connections in queues (patches/postgres@3.4.9.patch). Unpatched, a
 * queue that a shift never empties — the `busy` queue under steady load — kept a hole for every
 * query it had served and walked them all on every move: its cost grew with the process's age.
 */
interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
const postgresDir = dirname(dirname(import.meta.resolve("postgres").replace("file://", "")));
const { default: Queue } = (await import(pathToFileURL(join(postgresDir, "src/queue.js")).href)) as {
  default: <T>(initial?: T[]) => Queue<T>;
};

/** The array the queue copies its initial items into, recording the longest it ever grew. */
class MeasuredArray<T> extends Array<T> {
  static longest = 0;
  override push(...items: T[]) {
    const length = super.push(...items);
    MeasuredArray.longest = Math.max(MeasuredArray.longest, length);
    return length;
  }
}

describe("postgres.js's connection queue (patched)", () => {
  it("keeps nothing of what it served while busy connections keep coming back", () => {
    // Given a queue of 10 busy connections (its array measured)
    MeasuredArray.longest = 0;
    const connections = Array.from({ length: 10 }, (_, i) => i);
    const queue = Queue(MeasuredArray.from(connections) as number[]);

    // When 100,000 queries each take the next connection and put it back, as the pool does, and
    // now and then one connection goes idle and comes back
    for (let query = 0; query < 100_000; query++) {
      const connection = queue.shift() as number;
      queue.remove(connection);
      queue.push(connection);
      if (query % 7 === 0) {
        expect(queue.remove(3)).toBe(3);
        queue.push(3);
      }
    }

    // Then its array never grew far past the 10 it holds, and it still holds each of them once
    expect(MeasuredArray.longest).toBeLessThan(100);
    expect(queue.length).toBe(10);
    const held = Array.from({ length: 10 }, () => queue.shift());
    expect([...held].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(connections);
  });

  it("is first in, first out, and an empty queue stays empty", () => {
    const queue = Queue<string>();
    expect(queue.shift()).toBeUndefined();
    expect(queue.length).toBe(0);
    for (const x of ["a", "b", "c", "d"]) queue.push(x);
    expect(queue.remove("b")).toBe("b");
    expect(queue.remove("b")).toBeNull();
    expect([queue.shift(), queue.shift(), queue.shift(), queue.shift()]).toEqual(["a", "c", "d", undefined]);
    expect(queue.length).toBe(0);
  });
});
