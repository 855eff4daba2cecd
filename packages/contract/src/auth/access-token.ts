import { z } from "zod";

export const AccessTokenSchema = z.object({ access: z.string() }).meta({ id: "AccessToken" });
