CREATE TABLE "funding_occurrences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"budget_id" uuid NOT NULL,
	"kind" varchar(5) NOT NULL,
	"scheduled_date" date NOT NULL,
	"status" varchar(8) DEFAULT 'PENDING' NOT NULL,
	"amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"moved_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "funding_occurrences_kind" CHECK ("funding_occurrences"."kind" in ('fund', 'recur')),
	CONSTRAINT "funding_occurrences_status" CHECK ("funding_occurrences"."status" in ('PENDING', 'PARTIAL', 'COMPLETE', 'SKIPPED'))
);
--> statement-breakpoint
CREATE TABLE "scheduled_runs" (
	"job" varchar(32) NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"run_date" date NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheduled_runs_job_bank_account_id_run_date_pk" PRIMARY KEY("job","bank_account_id","run_date")
);
--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "schedules_from" date DEFAULT current_date NOT NULL;--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "processed_through" date;--> statement-breakpoint
ALTER TABLE "funding_occurrences" ADD CONSTRAINT "funding_occurrences_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funding_occurrences" ADD CONSTRAINT "funding_occurrences_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_runs" ADD CONSTRAINT "scheduled_runs_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "funding_occurrences_event_idx" ON "funding_occurrences" USING btree ("budget_id","kind","scheduled_date");--> statement-breakpoint
CREATE INDEX "funding_occurrences_account_idx" ON "funding_occurrences" USING btree ("bank_account_id","scheduled_date");--> statement-breakpoint
CREATE INDEX "funding_occurrences_partial_idx" ON "funding_occurrences" USING btree ("bank_account_id") WHERE "funding_occurrences"."status" = 'PARTIAL';