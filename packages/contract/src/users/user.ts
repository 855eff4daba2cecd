import { z } from "zod";
import { nameText } from "../http/control-characters";
import { describeFields, emptyAsNull, uuidField } from "../http/fields";

const USER_DOCS = {
  username: [
    "Letters, digits and `@ . + - _`, up to 150; the login email for most users.",
    "ada@example.com",
  ],
  email: ["The login email; blank for system accounts.", "ada@example.com"],
  name: ["The name shown to co-owners, up to 150 characters.", "Ada Lovelace"],
  url: ["This user's own URL in the API.", "https://allot.example.com/api/v1/users/ada@example.com/"],
  default_bank_account: [
    "The account clients open first (one the user owns), or null.",
    "3f1c2a9e-8b7d-4e21-9a6f-0c5d4b3a2e10",
  ],
  timezone: ["An IANA time zone; importers anchor statement dates in it.", "Europe/London"],
  has_usable_password: [
    "False for an account created by invitation until a password is set (password and email changes refuse it).",
    true,
  ],
} as const;

export const UserSchema = z
  .object(
    describeFields(
      {
        username: z.string(),
        email: z.string(),
        name: z.string(),
        url: z.string(),
        default_bank_account: z.uuid().nullable(),
        timezone: z.string(),
        has_usable_password: z.boolean(),
      },
      USER_DOCS,
    ),
  )
  .meta({ id: "User", description: "A user of the service." });

export const USERNAME_PATTERN = /^[\w.@+-]+$/;

/** The writable User fields; a PUT sends all of them, a PATCH any subset. */
export const userWritableFields = describeFields(
  {
    name: nameText().trim().max(150),
    /** Form bodies cannot send null: an empty value clears the default too. */
    default_bank_account: emptyAsNull(uuidField()),
    timezone: z.string().trim().min(1).max(64),
  },
  USER_DOCS,
);
