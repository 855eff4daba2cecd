import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { hygieneProblem } from "./hygiene-checks";
import type { FuzzOperation } from "./openapi-operations";

const cancel = { path: "/v1/bank-accounts/{id}/invitations/{token}/cancel/" } as FuzzOperation;
const refused = { statusCode: 404, body: "{}" } as LightMyRequestResponse;
const post = (url: string): InjectOptions => ({ method: "POST", url });
const ID = "07befacc-9e4f-484b-b85b-ce5164532a39";

describe("the fuzz's path-token check", () => {
  it("finds a token the log would show", () => {
    // A path the log cannot read as a token route's (no /api root) keeps its segments.
    const other = { path: "/v1/users/me/change-email/{token}/revoke/" } as FuzzOperation;
    expect(
      hygieneProblem(other, post(`/API2/v1/users/me/change-email/${"A".repeat(20)}/revoke/`), refused),
    ).toBe("the request log would show a path token");
  });

  it("does not take the same text elsewhere in the URL for the token", () => {
    // The fuzz put one id in both places, the first behind an encoded slash; the log masks the token's segment.
    expect(
      hygieneProblem(cancel, post(`/api/v1/bank-accounts%2F${ID}/invitations/${ID}/cancel/`), refused),
    ).toBe(null);
    const revoke = { path: "/v1/users/me/change-email/{token}/revoke/" } as FuzzOperation;
    const token = "A".repeat(40);
    expect(
      hygieneProblem(revoke, post(`/api/v1/users/me/change-email/${token}/revoke/?=${token}`), refused),
    ).toBe(null);
  });
});
