-- Which credential each webhook answers to, and why a disabled one is off (decision 0048). Webhooks
-- made before this have neither: their creator is unknown, and a disabled one keeps a null reason.
ALTER TABLE "webhooks" ADD COLUMN "disabled_reason" varchar(32);--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "credential_session_id" uuid;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "credential_api_key_id" uuid;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_credential_api_key_id_api_keys_id_fk" FOREIGN KEY ("credential_api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_disabled_reason" CHECK ("webhooks"."disabled_reason" in ('owner', 'gone', 'failing', 'credential_revoked', 'email_change_undone'));
