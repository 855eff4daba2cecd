import { z } from "zod";
import { uuidField } from "../http/fields";

export const UserSchema = z
  .object({
    username: z.string(),
    email: z.string(),
    name: z.string(),
    url: z.string(),
    default_bank_account: z.uuid().nullable(),
    timezone: z.string(),
    has_usable_password: z.boolean(),
  })
  .meta({ id: "User" });

export const USERNAME_PATTERN = /^[\w.@+-]+$/;

/** The writable User fields; a PUT sends all of them, a PATCH any subset. */
export const userWritableFields = {
  name: z.string().trim().max(150),
  /** Form bodies cannot send null: an empty value clears the default too. */
  default_bank_account: z.preprocess((v) => (v === "" ? null : v), uuidField().nullable()),
  timezone: z.string().trim().min(1).max(64),
};
