import type { routes } from "@allot/contract/routes";
import { type MethodName, methodName } from "./resource-names";
import type { AnyRoute, RouteMethod } from "./route-types";
import type { RequestOptions } from "./transport";

type Areas = typeof routes;

/** One method per route of an area, named by `methodName`. */
export type AreaResource<Area extends Record<string, unknown>, AreaName extends string> = {
  [Export in keyof Area & string as Area[Export] extends AnyRoute
    ? MethodName<Export, AreaName>
    : never]: Area[Export] extends AnyRoute ? RouteMethod<Area[Export]> : never;
};

export type GeneratedResources = {
  [AreaName in keyof Areas & string]: AreaResource<Areas[AreaName], AreaName>;
};

export type CallRoute = (route: AnyRoute, input: unknown, options?: RequestOptions) => Promise<unknown>;

const isRoute = (value: unknown): value is AnyRoute =>
  typeof value === "object" && value !== null && "method" in value && "path" in value && "input" in value;

/** The resource objects of every area of the contract, each method a `call` of its route. */
export function generateResources(areas: Areas, call: CallRoute): GeneratedResources {
  const resources: Record<string, Record<string, unknown>> = {};
  for (const [areaName, area] of Object.entries(areas)) {
    const resource: Record<string, unknown> = {};
    for (const [exportName, route] of Object.entries(area)) {
      if (!isRoute(route)) continue;
      const name = methodName(exportName, areaName);
      if (name in resource) throw new Error(`SDK: two routes of '${areaName}' map to the method '${name}'`);
      resource[name] = (input?: unknown, options?: RequestOptions) => call(route, input, options);
    }
    resources[areaName] = resource;
  }
  return resources as GeneratedResources;
}
