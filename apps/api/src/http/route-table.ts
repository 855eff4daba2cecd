import type { HttpMethod, RouteSpec } from "@allot/contract/http/route";

interface CompiledRoute {
  pattern: RegExp;
  route: RouteSpec;
}

export type RouteMatch = { route: RouteSpec } | { allowed: HttpMethod[] } | null;

/**
 * Matches `/api/…` paths against the contract so unknown paths are 404 and known paths with the
 * wrong method 405, before any procedure runs. Trailing slash optional; first declared wins.
 */
export function createRouteTable(routes: RouteSpec[], basePath: string) {
  const compiled: CompiledRoute[] = routes.map((route) => ({
    route,
    pattern: new RegExp(`^${basePath}${route.path.replace(/\/$/, "").replace(/\{\w+\}/g, "[^/]+")}/?$`),
  }));

  return (method: string, pathname: string): RouteMatch => {
    const effective = method === "HEAD" ? "GET" : method;
    const candidates = compiled.filter((c) => c.pattern.test(pathname));
    if (candidates.length === 0) return null;
    const hit = candidates.find((c) => c.route.method === effective);
    return hit ? { route: hit.route } : { allowed: [...new Set(candidates.map((c) => c.route.method))] };
  };
}

/**
 * Percent-decodes each path segment (trpc-to-openapi hands path values on undecoded). A segment
 * that would decode to a URL delimiter, a control character or a space stays encoded: a URL parser
 * strips tabs and newlines, and trailing controls and spaces, so `/transactions/%09` would
 * otherwise reach the procedures as `/transactions/`, the list.
 */
export function decodePath(pathname: string): string {
  return pathname
    .split("/")
    .map((segment) => {
      try {
        const decoded = decodeURIComponent(segment);
        return /[/?#]/.test(decoded) || hasControlOrSpace(decoded) ? segment : decoded;
      } catch {
        return segment;
      }
    })
    .join("/");
}

const hasControlOrSpace = (text: string) =>
  Array.from(text).some((c) => (c.codePointAt(0) as number) <= 0x20 || c === "\u007f");
