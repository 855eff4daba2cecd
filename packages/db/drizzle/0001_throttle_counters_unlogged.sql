-- Throttle counters are written on every request and worth nothing after a crash: skip the WAL
-- (and its fsync at commit) for them.
ALTER TABLE "throttle_counters" SET UNLOGGED;
