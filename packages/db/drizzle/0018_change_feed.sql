CREATE TABLE "change_counters" (
	"bank_account_id" uuid PRIMARY KEY NOT NULL,
	"last_change" bigint DEFAULT 0 NOT NULL,
	"purged_through" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "change_tombstones" (
	"bank_account_id" uuid NOT NULL,
	"change_seq" bigint NOT NULL,
	"object_type" varchar(24) NOT NULL,
	"object_id" uuid NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "change_tombstones_bank_account_id_change_seq_object_type_object_id_pk" PRIMARY KEY("bank_account_id","change_seq","object_type","object_id")
);
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Rows already there take 0 (a constant default adds the column without rewriting the table).
ALTER TABLE "budgets" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "budgets" ALTER COLUMN "change_seq" SET DEFAULT coalesce(nullif(current_setting('allot.change_seq', true), ''), '0')::bigint;--> statement-breakpoint
-- Rows already there take 0 (a constant default adds the column without rewriting the table).
ALTER TABLE "funding_occurrences" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "funding_occurrences" ALTER COLUMN "change_seq" SET DEFAULT coalesce(nullif(current_setting('allot.change_seq', true), ''), '0')::bigint;--> statement-breakpoint
-- Rows already there take 0 (a constant default adds the column without rewriting the table).
ALTER TABLE "internal_transactions" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "internal_transactions" ALTER COLUMN "change_seq" SET DEFAULT coalesce(nullif(current_setting('allot.change_seq', true), ''), '0')::bigint;--> statement-breakpoint
-- Rows already there take 0 (a constant default adds the column without rewriting the table).
ALTER TABLE "transaction_allocations" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transaction_allocations" ALTER COLUMN "change_seq" SET DEFAULT coalesce(nullif(current_setting('allot.change_seq', true), ''), '0')::bigint;--> statement-breakpoint
-- Rows already there take 0 (a constant default adds the column without rewriting the table).
ALTER TABLE "transactions" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "change_seq" SET DEFAULT coalesce(nullif(current_setting('allot.change_seq', true), ''), '0')::bigint;--> statement-breakpoint
ALTER TABLE "change_counters" ADD CONSTRAINT "change_counters_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_tombstones" ADD CONSTRAINT "change_tombstones_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_tombstones_deleted_at_idx" ON "change_tombstones" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX "budgets_changes_idx" ON "budgets" USING btree ("bank_account_id","change_seq","id");--> statement-breakpoint
CREATE INDEX "funding_occurrences_changes_idx" ON "funding_occurrences" USING btree ("bank_account_id","change_seq","id");--> statement-breakpoint
CREATE INDEX "internal_transactions_changes_idx" ON "internal_transactions" USING btree ("bank_account_id","change_seq","id");--> statement-breakpoint
CREATE INDEX "allocations_changes_idx" ON "transaction_allocations" USING btree ("bank_account_id","change_seq","id");--> statement-breakpoint
CREATE INDEX "transactions_changes_idx" ON "transactions" USING btree ("bank_account_id","change_seq","id");--> statement-breakpoint
-- Tombstones for the change feed (docs/decisions/0035), written for every deleted row, cascades
-- included, with the deleting transaction's change number; none when the account itself is gone.
CREATE FUNCTION "record_change_tombstones"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "change_tombstones" ("bank_account_id", "change_seq", "object_type", "object_id")
  SELECT d."bank_account_id", coalesce(nullif(current_setting('allot.change_seq', true), ''), '0')::bigint, TG_ARGV[0], d."id"
  FROM deleted d
  WHERE EXISTS (SELECT 1 FROM "bank_accounts" a WHERE a."id" = d."bank_account_id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "budgets_tombstones" AFTER DELETE ON "budgets" REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "record_change_tombstones"('budget');--> statement-breakpoint
CREATE TRIGGER "transactions_tombstones" AFTER DELETE ON "transactions" REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "record_change_tombstones"('transaction');--> statement-breakpoint
CREATE TRIGGER "transaction_allocations_tombstones" AFTER DELETE ON "transaction_allocations" REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "record_change_tombstones"('allocation');--> statement-breakpoint
CREATE TRIGGER "internal_transactions_tombstones" AFTER DELETE ON "internal_transactions" REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "record_change_tombstones"('internal_transaction');--> statement-breakpoint
CREATE TRIGGER "funding_occurrences_tombstones" AFTER DELETE ON "funding_occurrences" REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "record_change_tombstones"('funding_occurrence');
