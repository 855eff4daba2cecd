-- A webhook's latest failed attempt and why, shown by GET /webhooks/ (decision 0057). A webhook
-- failing now takes its latest failed attempt's error from its deliveries; the others start empty.
ALTER TABLE "webhooks" ADD COLUMN "last_failure_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "last_failure_reason" text;--> statement-breakpoint
UPDATE "webhooks" AS w SET "last_failure_at" = d."last_attempt_at", "last_failure_reason" = d."last_error"
FROM (
  SELECT DISTINCT ON (dd."webhook_id") dd."webhook_id", dd."last_attempt_at", dd."last_error"
  FROM "webhook_deliveries" dd
  JOIN "webhooks" ww ON ww."id" = dd."webhook_id"
  WHERE ww."failing_since" IS NOT NULL AND dd."last_attempt_at" >= ww."failing_since"
    AND dd."last_error" IS NOT NULL AND dd."last_error" NOT LIKE 'Not sent:%'
  ORDER BY dd."webhook_id", dd."last_attempt_at" DESC
) AS d
WHERE w."id" = d."webhook_id";
