import { describe, expect, it } from "vitest";
import { requestParts } from "./request-parts";

describe("requestParts", () => {
  it("fills path parameters (encoded) and sends the rest as the query of a GET", () => {
    const parts = requestParts(
      { method: "GET", path: "/v1/users/{username}/" },
      { username: "a b/c@x.io", ordering: "-name", page: 2, archived: false, skipped: undefined, none: null },
    );
    expect(parts).toEqual({
      path: "/v1/users/a%20b%2Fc%40x.io/?ordering=-name&page=2&archived=false",
      body: undefined,
    });
  });

  it("repeats a key for each item of an array and writes dates as ISO strings", () => {
    const parts = requestParts(
      { method: "DELETE", path: "/v1/things/" },
      { id: ["a", "b"], since: new Date("2024-01-02T03:04:05Z") },
    );
    expect(parts.path).toBe("/v1/things/?id=a&id=b&since=2024-01-02T03%3A04%3A05.000Z");
  });

  it("leaves no query string when nothing remains", () => {
    expect(requestParts({ method: "GET", path: "/v1/banks/{id}/" }, { id: "x" }).path).toBe("/v1/banks/x/");
    expect(requestParts({ method: "GET", path: "/v1/currencies/" }, undefined).path).toBe("/v1/currencies/");
  });

  it("sends the rest as the JSON body of POST, PUT and PATCH (an empty object when nothing remains)", () => {
    expect(
      requestParts({ method: "PATCH", path: "/v1/bank-accounts/{id}/" }, { id: "x", name: "N" }),
    ).toEqual({
      path: "/v1/bank-accounts/x/",
      body: { name: "N" },
    });
    expect(requestParts({ method: "POST", path: "/token/refresh/" }, undefined)).toEqual({
      path: "/token/refresh/",
      body: {},
    });
  });

  it("refuses a call without a path parameter rather than requesting a wrong URL", () => {
    expect(() => requestParts({ method: "GET", path: "/v1/banks/{id}/" }, {})).toThrow("'id' is missing");
  });
});
