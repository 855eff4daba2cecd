-- API instances cache a successful credential lookup for up to a second (decision 0045). Whatever
-- changes what a cached credential stands for (an API request, the CLI, cron, plain SQL) notifies
-- the user id on allot_credentials_revoked at its commit; every instance listening evicts that
-- user's entries. last_used_at and the other columns notify nothing.
CREATE FUNCTION "notify_credentials_revoked"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  user_id text;
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    user_id := OLD.id::text;
  ELSE
    user_id := OLD.user_id::text;
  END IF;
  PERFORM pg_notify('allot_credentials_revoked', user_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_notify_credentials_revoked"
  AFTER UPDATE OF "ended_at", "user_id" OR DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "notify_credentials_revoked"();
--> statement-breakpoint
CREATE TRIGGER "users_notify_credentials_revoked"
  AFTER UPDATE OF "is_active", "is_staff", "username", "password_hash" OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_credentials_revoked"();
--> statement-breakpoint
CREATE TRIGGER "api_keys_notify_credentials_revoked"
  AFTER UPDATE OF "revoked_at", "expires_at", "user_id", "key_digest" OR DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION "notify_credentials_revoked"();
