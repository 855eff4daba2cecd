/** Exact money in integer cents. */
const textOf = (cents: bigint) => {
  const digits = (cents < 0n ? -cents : cents).toString().padStart(3, "0");
  return `${cents < 0n ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

/**
 * A bank scrape for sync-scrape (benchmarks, fault tests): `scraped` posted rows from 2026-01-02
 * on (after every row `seedTransactions` makes), about 17 a day, a third with the purchase date in
 * the description, each carrying the bank's running balance; `pending` rows on
 * top. Newest first, as a bank lists them. Amounts are integers of cents, summed exactly.
 */
export function scrapePayload(base: bigint, scraped: number, pendingRows: number) {
  let balance = base;
  const posted: Record<string, unknown>[] = [];
  for (let i = 0; i < scraped; i++) {
    const day = new Date(Date.UTC(2026, 0, 2 + Math.floor(i / 17)));
    const date = day.toISOString().slice(0, 10);
    const amount = BigInt(((i * 7919) % 20000) - 15000 || 100);
    balance += amount;
    const prior = new Date(day.getTime() - 86_400_000);
    const mmdd = `${String(prior.getUTCMonth() + 1).padStart(2, "0")}/${String(prior.getUTCDate()).padStart(2, "0")}`;
    posted.push({
      is_pending: false,
      posted_date: date,
      raw_description: i % 3 === 0 ? `POS ${mmdd} SCRAPED SHOP ${i}` : `SCRAPED PURCHASE ${i}`,
      amount: textOf(amount),
      running_balance: textOf(balance),
      transaction_type: "signature_purchase",
    });
  }
  const pending = Array.from({ length: pendingRows }, (_, i) => ({
    is_pending: true,
    posted_date: "2026-11-21",
    raw_description: `PENDING HOLD ${i}`,
    amount: "-1.00",
  }));
  return {
    scraped_at: new Date().toISOString(),
    ending_balance: textOf(balance - BigInt(pendingRows * 100)),
    transactions: [...pending, ...posted.reverse()],
  };
}
