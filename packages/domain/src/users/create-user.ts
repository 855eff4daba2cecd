import { nameText } from "@allot/contract/http/control-characters";
import { isUniqueViolation } from "@allot/db/database-errors";
import { users } from "@allot/db/schema/users";
import { z } from "zod";
import { hashPassword } from "../auth/passwords";
import { Conflict, ValidationFailed } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import { fieldErrors } from "../shared/validation";
import { normalizeTimeZone, notATimeZone } from "./time-zone";

const CreateUserInput = z.object({
  email: z.email("Enter a valid email address.").max(254),
  password: z.string().min(1, "This field may not be blank.").max(4096),
  name: nameText().trim().max(150).default(""),
  staff: z.boolean().default(false),
  /** Absent: the column's default. */
  timezone: z
    .string()
    .optional()
    .transform((zone, ctx) => {
      if (zone === undefined) return undefined;
      const normalized = normalizeTimeZone(zone);
      if (!normalized) ctx.addIssue({ code: "custom", message: notATimeZone(zone) });
      return normalized ?? z.NEVER;
    }),
});

type NewUser = z.input<typeof CreateUserInput>;

/** The fields of a user to create, checked: ValidationFailed with every field's messages at once. */
export function parseNewUser(input: NewUser) {
  const parsed = CreateUserInput.safeParse(input);
  if (!parsed.success) throw new ValidationFailed(fieldErrors(parsed.error.issues));
  return parsed.data;
}

/**
 * Admin-made users (the CLI, the first-run page): active, with a password. The username is the
 * email, lower-cased, as for invited users.
 */
export async function createUser({ db }: PublicContext, input: NewUser) {
  const { email, password, name, staff, timezone } = parseNewUser(input);
  try {
    const [row] = await db
      .insert(users)
      .values({
        username: email.toLowerCase(),
        email,
        name,
        isStaff: staff,
        passwordHash: await hashPassword(password),
        ...(timezone ? { timezone } : {}),
      })
      .returning();
    if (!row) throw new Error("user insert returned nothing");
    return row;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new Conflict(`A user with email '${email}' already exists.`, "user_exists");
    throw error;
  }
}
