-- The invitee's link secret, kept as its SHA-256 digest (docs/decisions/0026). Existing rows get
-- the digest of a random value nobody holds: their links carried the token the lists showed every
-- co-owner, so those links stop working, and pending ones are marked expired so the inviter can
-- send a new invitation (an expired one does not block it).
ALTER TABLE "invitations" ADD COLUMN "secret_digest" text;--> statement-breakpoint
UPDATE "invitations" SET "secret_digest" = encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex');--> statement-breakpoint
UPDATE "invitations" SET "status" = 'expired', "modified_at" = now() WHERE "status" = 'pending';--> statement-breakpoint
ALTER TABLE "invitations" ALTER COLUMN "secret_digest" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_secret_digest_unique" UNIQUE("secret_digest");
