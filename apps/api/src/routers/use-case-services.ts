import type { Context } from "../trpc/context";

/*
 * What use cases take beyond their context, built from the server's services: a binding table
 * names one per row with `withServices(useCase, …)`.
 */

/** Links to the server's own pages (avatars, emailed links). */
export const publicUrl = ({ config }: Pick<Context, "config">) => ({ publicBaseUrl: config.publicBaseUrl });

/** Emailed links, whose secrets are sealed at rest. */
export const emailedLinks = ({ config, vault }: Pick<Context, "config" | "vault">) => ({
  publicBaseUrl: config.publicBaseUrl,
  vault,
});

/** Which webhook targets are allowed, and the vault their secrets are sealed with. */
export const webhookServices = ({ config, vault }: Pick<Context, "config" | "vault">) => ({
  policy: config.webhooks,
  vault,
});

export const secretVault = ({ vault }: Pick<Context, "vault">) => ({ vault });

/** Where a transaction's receipt files are linked from. */
export const attachmentLinks = ({ config }: Pick<Context, "config">) => config;
