-- Throttle counters are written on every request. Unlogged, their writes skip the WAL, so a
-- request's counter commit does not wait for a disk flush. A crash empties the table: every
-- window starts again from zero (decision 0044).
ALTER TABLE "throttle_counters" SET UNLOGGED;
