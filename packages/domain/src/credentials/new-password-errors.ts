import { passwordWeakness, personalWords } from "./password-strength";

/**
 * Field errors for a new password and its confirmation (empty when both are fine): a mismatch is
 * reported on `confirm_password`, a weak password on `new_password`, both at once if need be.
 */
export function newPasswordErrors(
  input: { new_password: string; confirm_password: string },
  user: { email: string; username: string; name: string },
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (input.new_password !== input.confirm_password) {
    errors.confirm_password = ["The two password fields didn't match."];
  }
  const weakness = passwordWeakness(input.new_password, personalWords(user));
  if (weakness) errors.new_password = [weakness];
  return errors;
}
