import { setupTokens } from "@allot/db/schema/setup-tokens";
import { users } from "@allot/db/schema/users";
import { sql } from "drizzle-orm";
import { createBank, parseNewBank } from "../banks/create-bank";
import { newPasswordErrors } from "../credentials/new-password-errors";
import { ValidationFailed } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import type { FieldErrors } from "../shared/validation";
import { createUser, parseNewUser } from "../users/create-user";
import { checkSetupToken } from "./check-setup-token";

/** The first-run form, field by field (`bank_name` empty: no bank). */
export interface SetupInput {
  token: string;
  email: string;
  password: string;
  confirm_password: string;
  name: string;
  /** Empty: the default zone. */
  timezone: string;
  bank_name: string;
  bank_currency: string;
}

/** Moves a check's field errors into `errors` (under `prefix`), so the form shows them all at once. */
function gather(errors: FieldErrors, check: () => unknown, prefix = "") {
  try {
    check();
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    for (const [field, messages] of Object.entries(error.fields)) errors[prefix + field] = messages;
  }
}

/**
 * The first-run page's submit: creates the first user, a staff user, with a password as strong as
 * any other must be, and the first bank if one is named, through the admin's own use cases. The
 * token is judged first (a spent link says so whatever was typed), then every field, then, under
 * a lock on `users` that serialises concurrent submits (and any other user insert), the token again:
 * of two submits one creates the user and the other finds the work done. The user's creation
 * spends every first-run token.
 */
export async function completeSetup(ctx: PublicContext, { token, ...input }: SetupInput) {
  await checkSetupToken(ctx.db, token);
  const user = {
    email: input.email.trim(),
    password: input.password,
    name: input.name,
    timezone: input.timezone.trim() || undefined,
    staff: true,
  };
  const bank = input.bank_name.trim() ? { name: input.bank_name, currency: input.bank_currency } : null;

  const errors: FieldErrors = {};
  gather(errors, () => parseNewUser(user));
  if (!errors.password) {
    const username = user.email.toLowerCase();
    const passwordErrors = newPasswordErrors(
      { new_password: input.password, confirm_password: input.confirm_password },
      { email: user.email, username, name: user.name },
    );
    if (passwordErrors.new_password) errors.password = passwordErrors.new_password;
    if (passwordErrors.confirm_password) errors.confirm_password = passwordErrors.confirm_password;
  }
  if (bank) gather(errors, () => parseNewBank(bank), "bank_");
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);

  return ctx.db.transaction(async (tx) => {
    // Held to the commit: a concurrent submit (or any user insert) waits, then finds a user.
    await tx.execute(sql`lock table ${users} in share row exclusive mode`);
    await checkSetupToken(tx, token);
    await tx.delete(setupTokens); // this link and any other start's
    const inTransaction = { ...ctx, db: tx };
    const created = await createUser(inTransaction, user);
    return { user: created, bank: bank ? await createBank(inTransaction, bank) : null };
  });
}
