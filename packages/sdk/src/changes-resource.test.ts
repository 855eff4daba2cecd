import type { ChangesPage } from "@allot/contract/changes/change";
import { describe, expect, it } from "vitest";
import { changesResource } from "./changes-resource";
import type { GeneratedResources } from "./resources";

/** A `changes` resource whose list answers the given pages in turn, recording what it was sent. */
function scripted(pages: ChangesPage[]) {
  const inputs: unknown[] = [];
  const list = async (input: unknown) => {
    inputs.push(input);
    const page = pages[inputs.length - 1];
    if (!page) throw new Error("asked for a page past the script");
    return page;
  };
  return { inputs, changes: changesResource({ list } as unknown as GeneratedResources["changes"]) };
}

const page = (cursor: string, has_more: boolean): ChangesPage => ({ cursor, has_more, changes: [] });

describe("changes.iterate", () => {
  it("yields each page, sending the last page's cursor as since until has_more is false", async () => {
    const { inputs, changes } = scripted([page("c1", true), page("c2", true), page("c3", false)]);
    const cursors: string[] = [];
    for await (const answer of changes.iterate("acc", { pageSize: 2 })) cursors.push(answer.cursor);
    expect(cursors).toEqual(["c1", "c2", "c3"]);
    expect(inputs).toEqual([
      { id: "acc", since: undefined, page_size: 2 },
      { id: "acc", since: "c1", page_size: 2 },
      { id: "acc", since: "c2", page_size: 2 },
    ]);
  });

  it("starts from since, and stops asking when the caller stops reading", async () => {
    const { inputs, changes } = scripted([page("c5", true), page("c6", false)]);
    for await (const answer of changes.iterate("acc", { since: "c4" })) {
      expect(answer.cursor).toBe("c5");
      break;
    }
    expect(inputs).toEqual([{ id: "acc", since: "c4", page_size: undefined }]);
  });

  it("throws instead of looping when a page with more to come answers the cursor it was sent", async () => {
    const { changes } = scripted([page("c1", true), page("c1", true)]);
    const reading = (async () => {
      for await (const _ of changes.iterate("acc")) {
        // Only the loop guard ends this.
      }
    })();
    await expect(reading).rejects.toThrow("without moving on");
  });
});
