// The domain's fixtures, for the cron app's tests: cron depends on the scheduler, not on the domain.
export { anAccount, anOwner } from "@allot/domain/testing/fixtures";
