ALTER TABLE "email_outbox" ALTER COLUMN "text_body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ALTER COLUMN "html_body" DROP NOT NULL;--> statement-breakpoint
-- Messages already delivered keep no body either: their links carry tokens.
UPDATE "email_outbox" SET "text_body" = NULL, "html_body" = NULL WHERE "sent_at" IS NOT NULL;
