CREATE TABLE "attachment_removals" (
	"key" varchar(200) PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"not_before" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "image_key" varchar(200);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "image_name" varchar(200);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "image_content_type" varchar(64);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "image_size" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "image_width" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "image_height" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "document_key" varchar(200);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "document_name" varchar(200);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "document_content_type" varchar(64);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "document_size" integer;--> statement-breakpoint
CREATE INDEX "attachment_removals_due_idx" ON "attachment_removals" USING btree ("not_before");--> statement-breakpoint
-- The old free-text values were links, never files (docs/decisions/0038-receipts.md): dropped.
ALTER TABLE "transactions" DROP COLUMN "image";--> statement-breakpoint
ALTER TABLE "transactions" DROP COLUMN "document";--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_image_whole" CHECK (num_nulls("transactions"."image_key", "transactions"."image_name", "transactions"."image_content_type", "transactions"."image_size", "transactions"."image_width", "transactions"."image_height") in (0, 6));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_document_whole" CHECK (num_nulls("transactions"."document_key", "transactions"."document_name", "transactions"."document_content_type", "transactions"."document_size") in (0, 4));--> statement-breakpoint
-- A deleted transaction's files, cascades included (an account's deletion), are queued for removal
-- in the deleting transaction: removed once it commits, never if it rolls back.
CREATE FUNCTION "queue_attachment_removals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "attachment_removals" ("key")
  SELECT k FROM deleted d, LATERAL (VALUES (d."image_key"), (d."document_key")) AS f(k)
  WHERE k IS NOT NULL
  ON CONFLICT ("key") DO UPDATE SET "not_before" = least("attachment_removals"."not_before", excluded."not_before");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transactions_attachment_removals" AFTER DELETE ON "transactions" REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "queue_attachment_removals"();
