import { allRoutes } from "@allot/contract/routes";
import { describe, expect, it } from "vitest";
import { createRouteTable } from "./route-table";

const match = createRouteTable(allRoutes, "/api");
const routeOf = (method: string, path: string) => {
  const found = match(method, path);
  return found && "route" in found ? `${found.route.method} ${found.route.path}` : found;
};

describe("the route table", () => {
  it("finds every contract route from a path of its own, with or without the trailing slash", () => {
    for (const route of allRoutes) {
      const path = `/api${route.path.replace(/\{\w+\}/g, "8f3c")}`;
      for (const sent of [path, path.replace(/\/$/, "")]) {
        const found = match(route.method, sent);
        // A literal path may belong to an earlier-declared route with the same method (users/me).
        expect(found && "route" in found && found.route.method, `${route.method} ${sent}`).toBe(route.method);
        expect(found && "route" in found && found.route.path.split("/").length).toBe(
          route.path.split("/").length,
        );
      }
    }
  });

  it("prefers the route declared first: /users/me/ is not a username", () => {
    expect(routeOf("GET", "/api/v1/users/me/")).toBe("GET /v1/users/me/");
    expect(routeOf("GET", "/api/v1/users/alice/")).toBe("GET /v1/users/{username}/");
  });

  it("answers the methods a known path allows, and nothing for an unknown one", () => {
    expect(match("DELETE", "/api/v1/banks/")).toEqual({ allowed: expect.arrayContaining(["GET"]) });
    expect(routeOf("HEAD", "/api/v1/banks/")).toBe("GET /v1/banks/");
    expect(match("GET", "/api/v2/banks/")).toBeNull();
    expect(match("GET", "/api/v1/banks/x/y/z/")).toBeNull();
    expect(match("GET", "/api/")).toBeNull();
    expect(match("GET", "/elsewhere/v1/banks/")).toBeNull();
    expect(routeOf("POST", "/api/token/refresh")).toBe("POST /token/refresh/");
  });
});
