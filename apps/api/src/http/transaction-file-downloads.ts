import type { RouteSpec } from "@allot/contract/http/route";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import type { Database } from "@allot/db/create-database";
import { Unauthenticated, ValidationFailed } from "@allot/domain/shared/errors";
import type { UseCaseServices } from "@allot/domain/shared/use-case-services";
import { fieldErrors } from "@allot/domain/shared/validation";
import { openTransactionFile } from "@allot/domain/transactions/open-transaction-file";
import type { FastifyInstance } from "fastify";
import { inlineContentDisposition } from "./content-disposition";
import { requestMetaOf } from "./request-meta";

const DOWNLOADS = [
  { route: transactionRoutes.getTransactionImage, field: "image" },
  { route: transactionRoutes.getTransactionDocument, field: "document" },
] as const satisfies { route: RouteSpec; field: string }[];

/**
 * The receipt downloads (docs/spec/extensions.md §5): bytes, not JSON, so plain fastify routes
 * rather than procedures. They are contract routes all the same (`contractRoute`): app.ts's hooks
 * match them, authenticate the caller (any credential) and throttle them like every other.
 */
export function registerTransactionFileDownloads(
  app: FastifyInstance,
  apiBase: string,
  db: Database,
  services: UseCaseServices,
) {
  for (const { route, field } of DOWNLOADS) {
    const path = `${apiBase}${route.path.replace("{id}", ":id")}`;
    for (const url of [path, path.replace(/\/$/, "")]) {
      app.get(url, { config: { contractRoute: true } }, async (request, reply) => {
        const actor = request.allot?.actor;
        if (!actor) throw new Unauthenticated();
        const input = route.input.safeParse(request.params);
        if (!input.success) throw new ValidationFailed(fieldErrors(input.error.issues));
        const file = await openTransactionFile(
          {
            db,
            actor,
            request: requestMetaOf(request),
            now: new Date(),
            services,
          },
          input.data.id,
          field,
        );
        return (
          reply
            .header("content-type", file.contentType)
            .header("content-length", String(file.size))
            .header("content-disposition", inlineContentDisposition(file.name))
            // A PDF's script or an image's markup runs nowhere, even opened at its own URL.
            .header("content-security-policy", "sandbox; default-src 'none'")
            .header("x-content-type-options", "nosniff")
            .header("cache-control", "private")
            .send(file.body)
        );
      });
    }
  }
}
