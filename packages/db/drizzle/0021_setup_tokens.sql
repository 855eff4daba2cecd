CREATE TABLE "setup_tokens" (
	"token_digest" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
