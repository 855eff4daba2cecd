import { describe, expect, it } from "vitest";
import { paginator } from "./paginate";
import type { AnyRoute } from "./route-types";

describe("paginate", () => {
  it("follows next links, keeping a repeated filter a list", async () => {
    const inputs: unknown[] = [];
    const pages = [
      { next: "http://elsewhere/api/v1/x/?page=2&status=PENDING&status=PARTIAL", results: [1, 2] },
      { next: null, results: [3] },
    ];
    const call = async (_route: AnyRoute, input: unknown) => {
      inputs.push(input);
      return pages[inputs.length - 1];
    };
    const items: unknown[] = [];
    for await (const item of paginator(call)({} as AnyRoute, { status: ["PENDING", "PARTIAL"] }))
      items.push(item);
    expect(items).toEqual([1, 2, 3]);
    expect(inputs[1]).toEqual({ page: "2", status: ["PENDING", "PARTIAL"] });
  });
});
