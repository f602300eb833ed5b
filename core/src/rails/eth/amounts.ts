/**
 * Exact payment arithmetic (bigint only). A quote's amount is the USD due over the
 * ETH price, rounded UP to a whole millionth of an ETH, plus the order's tag in the
 * digits below a millionth: amountWei = base + tag * TAG_UNIT_WEI. Any transfer's tag
 * is read back from those digits, whoever sent or reported it.
 */
export const WEI_PER_ETH = 10n ** 18n;
/** A millionth of an ETH: the quoted base amount is a multiple of it. */
export const MICRO_ETH_WEI = 10n ** 12n;
/**
 * Tags live in wei digits 4..12: tag * 1e3 < 1e12. A billion of them: with every account
 * holding at most MAX_HELD_TAGS_PER_USER (unpaid orders, and ones that expired or were
 * cancelled and keep their tag through the monitoring window), exhausting them would take
 * tens of millions of accounts (docs/decisions.md, 'Orders and payments').
 */
export const TAG_UNIT_WEI = 10n ** 3n;
export const MAX_TAG = 999_999_999;
export const FEED_DECIMALS = 8n;

/** USD cents -> wei at `answer` (USD per ETH with 8 decimals), rounded up to a wei. */
export function usdCentsToWei(cents: bigint, answer: bigint): bigint {
  if (answer <= 0n) throw new Error('price must be positive');
  if (cents < 0n) throw new Error('amount must not be negative');
  // wei = cents / 100 * 1e18 / (answer / 1e8) = cents * 1e24 / answer
  return (cents * 10n ** 24n + answer - 1n) / answer;
}

/** USD cents -> wei at `answer`, rounded up to a micro-ETH (a quote's base amount). */
export function usdCentsToBaseWei(cents: bigint, answer: bigint): bigint {
  const wei = usdCentsToWei(cents, answer);
  return ((wei + MICRO_ETH_WEI - 1n) / MICRO_ETH_WEI) * MICRO_ETH_WEI;
}

export function quoteAmountWei(cents: bigint, answer: bigint, tag: number): bigint {
  if (!Number.isInteger(tag) || tag < 1 || tag > MAX_TAG) throw new Error(`bad tag ${tag}`);
  return usdCentsToBaseWei(cents, answer) + BigInt(tag) * TAG_UNIT_WEI;
}

/** The tag a transfer's value carries (0 when none). */
export function tagOf(valueWei: bigint): number {
  return Number((valueWei % MICRO_ETH_WEI) / TAG_UNIT_WEI);
}

/** wei -> USD cents at `answer`, rounded DOWN (a payment is never worth more than sent). */
export function weiToUsdCents(valueWei: bigint, answer: bigint): bigint {
  return (valueWei * answer) / 10n ** 24n;
}

/** "3000.12000000" (8 decimals) <-> 300012000000n */
export function priceToAnswer(price: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,8}))?$/.exec(price.trim());
  if (!match) throw new Error(`not a price: ${price}`);
  return BigInt(match[1] as string) * 10n ** FEED_DECIMALS + BigInt((match[2] ?? '').padEnd(8, '0'));
}

export function answerToPrice(answer: bigint): string {
  const whole = answer / 10n ** FEED_DECIMALS;
  const frac = (answer % 10n ** FEED_DECIMALS).toString().padStart(8, '0');
  return `${whole}.${frac}`;
}
