-- A recorded answer is written once, in the request's own transaction, and read at most a few times
-- before it expires: compressing it costs more than it saves. pglz spent ~10 ms on a 5,000-row
-- sync's answer (its ids do not compress), uncompressed it takes ~2.5 ms (decision 0037).
ALTER TABLE "idempotency_keys" ALTER COLUMN "body" SET STORAGE EXTERNAL;
