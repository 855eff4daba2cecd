import type { routes } from "@allot/contract/routes";
import { type MethodName, methodName } from "./resource-names";
import type { AnyRoute, RouteInput, RouteMethod } from "./route-types";
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

/** `unknown` or `any`: a field that would take anything. */
type Untyped<T> = 0 extends 1 & T ? true : unknown extends T ? true : false;

/** The paths of a value's untyped fields, through nested objects and lists (a map's values are free). */
type UntypedPaths<T, Path extends string> =
  Untyped<T> extends true
    ? Path
    : T extends readonly (infer Item)[]
      ? UntypedPaths<Item, `${Path}[]`>
      : T extends object
        ? string extends keyof T
          ? never
          : { [Field in keyof T & string]-?: UntypedPaths<T[Field], `${Path}.${Field}`> }[keyof T & string]
        : never;

type UntypedInputFields = {
  [AreaName in keyof Areas & string]: {
    [Export in keyof Areas[AreaName] & string]: Areas[AreaName][Export] extends AnyRoute
      ? UntypedPaths<RouteInput<Areas[AreaName][Export]>, `${AreaName}.${Export}`>
      : never;
  }[keyof Areas[AreaName] & string];
}[keyof Areas & string];

/**
 * Every field a method takes is typed, so a wrong type does not compile. A contract field typed
 * `unknown` (a `z.preprocess` whose argument is not annotated) fails the SDK's typecheck and build
 * here, naming it: "Type '"users.updateMeRoute.default_bank_account"' does not satisfy … 'never'".
 */
type RequireNone<Fields extends never> = Fields;
// biome-ignore lint/correctness/noUnusedVariables: checked where it is declared, never used
type EveryInputTyped = RequireNone<UntypedInputFields>;

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
