import type { routes } from "@allot/contract/routes";
import type { AnyRoute, RouteInput, RouteMethod } from "./route-types";
import type { RequestOptions } from "./transport";

type Areas = typeof routes;

/** One method per route of an area, under the route's key in the contract. */
export type AreaResource<Area extends Record<string, AnyRoute>> = {
  [Key in keyof Area]: RouteMethod<Area[Key]>;
};

export type GeneratedResources = {
  [AreaName in keyof Areas]: AreaResource<Areas[AreaName]>;
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
    [Key in keyof Areas[AreaName] & string]: Areas[AreaName][Key] extends AnyRoute
      ? UntypedPaths<RouteInput<Areas[AreaName][Key]>, `${AreaName}.${Key}`>
      : never;
  }[keyof Areas[AreaName] & string];
}[keyof Areas & string];

/**
 * Every field a method takes is typed, so a wrong type does not compile. A contract field typed
 * `unknown` (a `z.preprocess` whose argument is not annotated) fails the SDK's typecheck and build
 * here, naming it: "Type '"users.updateMe.default_bank_account"' does not satisfy … 'never'".
 */
type RequireNone<Fields extends never> = Fields;
// biome-ignore lint/correctness/noUnusedVariables: checked where it is declared, never used
type EveryInputTyped = RequireNone<UntypedInputFields>;

export type CallRoute = (route: AnyRoute, input: unknown, options?: RequestOptions) => Promise<unknown>;

/** The resource objects of every area of the contract, each method a `call` of its route. */
export function generateResources(areas: Areas, call: CallRoute): GeneratedResources {
  const resources: Record<string, Record<string, unknown>> = {};
  for (const [areaName, area] of Object.entries(areas)) {
    const resource: Record<string, unknown> = {};
    for (const [key, route] of Object.entries(area as Record<string, AnyRoute>))
      resource[key] = (input?: unknown, options?: RequestOptions) => call(route, input, options);
    resources[areaName] = resource;
  }
  return resources as GeneratedResources;
}
