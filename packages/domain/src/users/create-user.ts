import { isUniqueViolation } from "@allot/db/database-errors";
import { users } from "@allot/db/schema/users";
import { z } from "zod";
import { hashPassword } from "../auth/passwords";
import { Conflict, ValidationFailed } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import { fieldErrors } from "../shared/validation";

const CreateUserInput = z.object({
  email: z.email("Enter a valid email address.").max(254),
  password: z.string().min(1, "This field may not be blank.").max(4096),
  name: z.string().trim().max(150).default(""),
  staff: z.boolean().default(false),
});

/**
 * Admin-made users (the CLI): active, with a password. The username is the email, lower-cased,
 * as for invited users.
 */
export async function createUser({ db }: PublicContext, input: z.input<typeof CreateUserInput>) {
  const parsed = CreateUserInput.safeParse(input);
  if (!parsed.success) throw new ValidationFailed(fieldErrors(parsed.error.issues));
  const { email, password, name, staff } = parsed.data;
  try {
    const [row] = await db
      .insert(users)
      .values({
        username: email.toLowerCase(),
        email,
        name,
        isStaff: staff,
        passwordHash: await hashPassword(password),
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
