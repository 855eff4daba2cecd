import { forecastRoutes } from "@allot/contract/forecasts/routes";
import { forecastAccount } from "@allot/domain/forecasts/forecast-account";
import { bindRoutes } from "../../trpc/bind-routes";

/** The forecast, read (GET) or with what-ifs (POST): one use case, the GET's input a part of the POST's. */
export const forecastsRouter = bindRoutes(forecastRoutes, {
  get: forecastAccount,
  whatIf: forecastAccount,
});
