CREATE TABLE "internal_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"src_budget_id" uuid NOT NULL,
	"dst_budget_id" uuid NOT NULL,
	"actor_id" integer,
	"effective_date" timestamp with time zone DEFAULT now() NOT NULL,
	"src_budget_balance" numeric(14, 2) DEFAULT '0' NOT NULL,
	"dst_budget_balance" numeric(14, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transaction_allocations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"budget_id" uuid,
	"amount" numeric(14, 2) NOT NULL,
	"category_id" uuid,
	"memo" text,
	"budget_balance" numeric(14, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transaction_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"group" varchar(100) NOT NULL,
	"name" varchar(100) NOT NULL,
	"owner_id" integer,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"posted_date" timestamp with time zone NOT NULL,
	"transaction_date" timestamp with time zone NOT NULL,
	"transaction_type" varchar(64) DEFAULT '' NOT NULL,
	"pending" boolean DEFAULT false NOT NULL,
	"memo" text,
	"raw_description" text NOT NULL,
	"description" text NOT NULL,
	"description_user_edited" boolean DEFAULT false NOT NULL,
	"category_id" uuid,
	"party" text,
	"merchant_name" varchar(128),
	"merchant_intermediary" varchar(128),
	"merchant_address" text,
	"merchant_city" varchar(128),
	"merchant_region" varchar(64),
	"merchant_country" varchar(64),
	"merchant_latitude" numeric(9, 6),
	"merchant_longitude" numeric(9, 6),
	"merchant_category" varchar(128),
	"merchant_category_code" varchar(4),
	"virtual_card_number" varchar(32),
	"details" jsonb,
	"bank_transaction_id" varchar(128),
	"linked_transaction_id" uuid,
	"posted_balance_snapshot" numeric(14, 2) DEFAULT '0' NOT NULL,
	"available_balance_snapshot" numeric(14, 2) DEFAULT '0' NOT NULL,
	"image" text,
	"document" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "internal_transactions" ADD CONSTRAINT "internal_transactions_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "internal_transactions" ADD CONSTRAINT "internal_transactions_src_budget_id_budgets_id_fk" FOREIGN KEY ("src_budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "internal_transactions" ADD CONSTRAINT "internal_transactions_dst_budget_id_budgets_id_fk" FOREIGN KEY ("dst_budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "internal_transactions" ADD CONSTRAINT "internal_transactions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_allocations" ADD CONSTRAINT "transaction_allocations_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_allocations" ADD CONSTRAINT "transaction_allocations_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_allocations" ADD CONSTRAINT "transaction_allocations_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_allocations" ADD CONSTRAINT "transaction_allocations_category_id_transaction_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."transaction_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_categories" ADD CONSTRAINT "transaction_categories_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_category_id_transaction_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."transaction_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "internal_transactions_account_idx" ON "internal_transactions" USING btree ("bank_account_id","effective_date","created_at");--> statement-breakpoint
CREATE INDEX "internal_transactions_src_idx" ON "internal_transactions" USING btree ("src_budget_id");--> statement-breakpoint
CREATE INDEX "internal_transactions_dst_idx" ON "internal_transactions" USING btree ("dst_budget_id");--> statement-breakpoint
CREATE INDEX "allocations_transaction_idx" ON "transaction_allocations" USING btree ("transaction_id","created_at");--> statement-breakpoint
CREATE INDEX "allocations_budget_idx" ON "transaction_allocations" USING btree ("budget_id");--> statement-breakpoint
CREATE INDEX "allocations_account_idx" ON "transaction_allocations" USING btree ("bank_account_id","created_at");--> statement-breakpoint
CREATE INDEX "allocations_category_idx" ON "transaction_allocations" USING btree ("category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "transaction_categories_global_unique" ON "transaction_categories" USING btree (lower("group"),lower("name")) WHERE "transaction_categories"."owner_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "transaction_categories_owner_unique" ON "transaction_categories" USING btree ("owner_id",lower("group"),lower("name")) WHERE "transaction_categories"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "transaction_categories_owner_idx" ON "transaction_categories" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "transactions_account_order_idx" ON "transactions" USING btree ("bank_account_id","transaction_date","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_category_idx" ON "transactions" USING btree ("category_id");