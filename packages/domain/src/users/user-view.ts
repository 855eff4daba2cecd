import type { users } from "@allot/db/schema/users";

type UserRow = typeof users.$inferSelect;

/** The wire User; `url` is absolute, under the service's public base URL. */
export const toUserView = (row: UserRow, baseUrl: string) => ({
  username: row.username,
  email: row.email,
  name: row.name,
  url: `${baseUrl.replace(/\/$/, "")}/api/v1/users/${encodeURIComponent(row.username)}/`,
  default_bank_account: row.defaultBankAccountId,
  timezone: row.timezone,
  has_usable_password: row.passwordHash !== null,
});
