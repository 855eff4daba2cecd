import { sql } from "drizzle-orm";
import { rowsOf } from "../shared/rows-of";
import type { PublicContext } from "../shared/use-case-context";

/** How long before its expiry a key's owner is told, so an importer never stops by surprise. */
export const EXPIRY_WARNING_DAYS = 7;

/**
 * Records `api_key_expiring` for every active key expiring within the next 7 days whose owner has
 * not been told yet (the notification itself is the record, so a key is warned about once however
 * often the job runs, on however many machines: the insert is one statement). Returns how many.
 */
export async function warnExpiringApiKeys({ db, now }: PublicContext): Promise<number> {
  const until = new Date(now.getTime() + EXPIRY_WARNING_DAYS * 86_400_000);
  const result = await db.execute(sql`
    insert into notifications (user_id, kind, payload)
    select k.user_id, 'api_key_expiring',
      jsonb_build_object('api_key', k.id, 'name', k.name, 'prefix', k.prefix, 'expires_at', k.expires_at)
    from api_keys k
    where k.revoked_at is null
      and k.expires_at > ${now.toISOString()}::timestamptz
      and k.expires_at <= ${until.toISOString()}::timestamptz
      and not exists (
        select 1 from notifications n
        where n.user_id = k.user_id and n.kind = 'api_key_expiring' and n.payload->>'api_key' = k.id::text)
    returning 1`);
  return rowsOf(result).length;
}
