CREATE TABLE "account_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "account_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"bank_account_id" uuid NOT NULL,
	"type" varchar(48) NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_kind" varchar(16) NOT NULL,
	"actor_username" varchar(150),
	"actor_api_key" jsonb,
	"request_id" varchar(128) NOT NULL,
	"summary" text NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "account_events_type" CHECK ("account_events"."type" in ('bank_account.created', 'bank_account.updated', 'bank_account.imported', 'bank_account.owner_added', 'budget.created', 'budget.updated', 'budget.paused', 'budget.resumed', 'budget.archived', 'budget.deleted', 'budget.completed', 'transaction.created', 'transaction.updated', 'transaction.deleted', 'transaction.posted', 'transaction.split', 'transaction.enriched', 'transfer.created', 'funding.completed', 'funding.underfunded', 'import.synced', 'invitation.created', 'invitation.accepted', 'invitation.declined', 'invitation.cancelled')),
	CONSTRAINT "account_events_actor_kind" CHECK ("account_events"."actor_kind" in ('user', 'api_key', 'scheduler', 'system'))
);
--> statement-breakpoint
ALTER TABLE "account_events" ADD CONSTRAINT "account_events_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_events_account_idx" ON "account_events" USING btree ("bank_account_id","seq");--> statement-breakpoint
CREATE INDEX "account_events_occurred_idx" ON "account_events" USING btree ("occurred_at");