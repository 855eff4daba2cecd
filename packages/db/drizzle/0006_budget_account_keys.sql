ALTER TABLE "budgets" ADD CONSTRAINT "budgets_id_account_key" UNIQUE("id","bank_account_id");--> statement-breakpoint
ALTER TABLE "funding_occurrences" DROP CONSTRAINT "funding_occurrences_bank_account_id_bank_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "funding_occurrences" DROP CONSTRAINT "funding_occurrences_budget_id_budgets_id_fk";
--> statement-breakpoint
ALTER TABLE "internal_transactions" DROP CONSTRAINT "internal_transactions_bank_account_id_bank_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "internal_transactions" DROP CONSTRAINT "internal_transactions_src_budget_id_budgets_id_fk";
--> statement-breakpoint
ALTER TABLE "internal_transactions" DROP CONSTRAINT "internal_transactions_dst_budget_id_budgets_id_fk";
--> statement-breakpoint
ALTER TABLE "funding_occurrences" ADD CONSTRAINT "funding_occurrences_budget_account_fk" FOREIGN KEY ("budget_id","bank_account_id") REFERENCES "public"."budgets"("id","bank_account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "internal_transactions" ADD CONSTRAINT "internal_transactions_src_account_fk" FOREIGN KEY ("src_budget_id","bank_account_id") REFERENCES "public"."budgets"("id","bank_account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "internal_transactions" ADD CONSTRAINT "internal_transactions_dst_account_fk" FOREIGN KEY ("dst_budget_id","bank_account_id") REFERENCES "public"."budgets"("id","bank_account_id") ON DELETE cascade ON UPDATE no action;
