-- Every write stores the contract's letters (the API accepts no others): no row fails these.
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_budget_type" CHECK ("budgets"."budget_type" in ('G', 'R', 'A', 'C'));--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_funding_type" CHECK ("budgets"."funding_type" in ('D', 'F'));