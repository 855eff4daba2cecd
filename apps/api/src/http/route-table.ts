import type { HttpMethod, RouteSpec } from "@allot/contract/http/route";

interface CompiledRoute {
  pattern: RegExp;
  route: RouteSpec;
  /** The path's first two segments when both are literal (`v1/budgets`); null when either is a parameter. */
  prefix: string | null;
}

export type RouteMatch = { route: RouteSpec } | { allowed: HttpMethod[] } | null;

/** The first two segments of a path after the base (`/v1/budgets/…` → `v1/budgets`; `/token/` → `token/`). */
const prefixOf = (path: string) => {
  const [first = "", second = ""] = path.split("/", 3).slice(1);
  return `${first}/${second}`;
};

/**
 * Matches `/api/…` paths against the contract so unknown paths are 404 and known paths with the
 * wrong method 405, before any procedure runs. Trailing slash optional; first declared wins. A
 * path is tried only against the routes sharing its first two segments (every request pays for
 * this, and there are about 90 routes).
 */
export function createRouteTable(routes: RouteSpec[], basePath: string) {
  const compiled: CompiledRoute[] = routes.map((route) => {
    const prefix = prefixOf(route.path);
    return {
      route,
      pattern: new RegExp(`^${basePath}${route.path.replace(/\/$/, "").replace(/\{\w+\}/g, "[^/]+")}/?$`),
      prefix: prefix.includes("{") ? null : prefix,
    };
  });
  // Declaration order is kept in every group: routes with a parameter up front belong to all.
  const anyPrefix = compiled.filter((c) => c.prefix === null);
  const byPrefix = new Map<string, CompiledRoute[]>();
  for (const c of compiled) {
    if (c.prefix !== null && !byPrefix.has(c.prefix))
      byPrefix.set(
        c.prefix,
        compiled.filter((other) => other.prefix === c.prefix || other.prefix === null),
      );
  }

  return (method: string, pathname: string): RouteMatch => {
    const effective = method === "HEAD" ? "GET" : method;
    const group = byPrefix.get(prefixOf(pathname.slice(basePath.length))) ?? anyPrefix;
    const candidates = group.filter((c) => c.pattern.test(pathname));
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
