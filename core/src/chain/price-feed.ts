import type { Address, Chain, PublicClient, Transport } from 'viem';

/**
 * The ETH/USD price from a Chainlink AggregatorV3 feed (on the local chain, the mock
 * placed at the same address). Every answer is checked before use: a price that is
 * missing, non-positive or older than allowed is an error, never a number. The token
 * rails read their <token>/USD feeds (8 decimals too) through the same reading and rules
 * (rails/erc20/price.ts).
 */

export const ETH_USD_DECIMALS = 8;

export type EthUsdPrice = {
  /** The feed's raw integer answer, 8 decimals. */
  answer: bigint;
  decimals: 8;
  /** Exact decimal string with 8 decimals, e.g. "3000.12000000". */
  price: string;
  updatedAt: Date;
  roundId: bigint;
};

export type ReadEthUsdPriceOptions = {
  feedAddress: Address;
  /** Older answers are refused. Chainlink's ETH/USD heartbeat is 3600 s. */
  maxAgeSeconds: number;
  now?: () => Date;
  /** What the feed prices, as messages name it: `ETH/USD` unless told (a token's feed: `USDC/USD`). */
  feedName?: string;
};

export type PriceUnavailableReason = 'call_failed' | 'invalid_response' | 'no_round' | 'non_positive' | 'stale';

/** No trustworthy price right now; callers should answer 503 or retry later. */
export class PriceUnavailableError extends Error {
  override readonly name = 'PriceUnavailableError';
  readonly reason: PriceUnavailableReason;

  constructor(reason: PriceUnavailableReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

export const latestRoundDataAbi = [
  {
    type: 'function',
    name: 'latestRoundData',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'roundId', type: 'uint80' },
      { name: 'answer', type: 'int256' },
      { name: 'startedAt', type: 'uint256' },
      { name: 'updatedAt', type: 'uint256' },
      { name: 'answeredInRound', type: 'uint80' },
    ],
  },
] as const;

export type PriceFeedClient = Pick<PublicClient<Transport, Chain | undefined>, 'readContract'>;

export async function readEthUsdPrice(client: PriceFeedClient, opts: ReadEthUsdPriceOptions): Promise<EthUsdPrice> {
  const { feedAddress, maxAgeSeconds } = opts;
  if (!Number.isInteger(maxAgeSeconds) || maxAgeSeconds <= 0) {
    throw new RangeError(`maxAgeSeconds must be a positive integer, got ${maxAgeSeconds}`);
  }
  const feed = `${opts.feedName ?? 'ETH/USD'} feed ${feedAddress}`;

  let result: unknown;
  try {
    result = await client.readContract({ address: feedAddress, abi: latestRoundDataAbi, functionName: 'latestRoundData' });
  } catch (err) {
    throw new PriceUnavailableError('call_failed', `${feed}: latestRoundData call failed: ${shortMessage(err)}`, { cause: err });
  }

  if (!Array.isArray(result) || result.length !== 5 || !result.every((v) => typeof v === 'bigint')) {
    throw new PriceUnavailableError('invalid_response', `${feed}: latestRoundData returned an unexpected shape`);
  }
  const [roundId, answer, , updatedAtSeconds] = result as [bigint, bigint, bigint, bigint, bigint];

  if (updatedAtSeconds === 0n) {
    throw new PriceUnavailableError('no_round', `${feed}: no completed round (updatedAt is 0)`);
  }
  if (answer <= 0n) {
    throw new PriceUnavailableError('non_positive', `${feed}: answer ${answer} is not a positive price`);
  }
  const nowSeconds = BigInt(Math.floor((opts.now?.() ?? new Date()).getTime() / 1000));
  const ageSeconds = nowSeconds - updatedAtSeconds;
  if (ageSeconds > BigInt(maxAgeSeconds)) {
    throw new PriceUnavailableError(
      'stale',
      `${feed}: price is stale (updated ${ageSeconds} s ago, limit ${maxAgeSeconds} s)`,
    );
  }

  return {
    answer,
    decimals: ETH_USD_DECIMALS,
    price: formatFeedAnswer(answer),
    updatedAt: new Date(Number(updatedAtSeconds) * 1000),
    roundId,
  };
}

/** 300012000000n -> "3000.12000000": integer arithmetic only. */
export function formatFeedAnswer(answer: bigint, decimals = ETH_USD_DECIMALS): string {
  const negative = answer < 0n;
  const magnitude = negative ? -answer : answer;
  const scale = 10n ** BigInt(decimals);
  const whole = magnitude / scale;
  const fraction = (magnitude % scale).toString().padStart(decimals, '0');
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
}

function shortMessage(err: unknown): string {
  if (err && typeof err === 'object' && 'shortMessage' in err && typeof err.shortMessage === 'string') {
    return err.shortMessage;
  }
  return err instanceof Error ? err.message : String(err);
}
