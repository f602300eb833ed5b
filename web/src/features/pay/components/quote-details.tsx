import type { QuoteJson } from '@shop/core/contract';
import { CircleAlert } from 'lucide-react';
import { useEthPrice } from '@/api/get-eth-price';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { formatAssetAmount } from '@/lib/asset-amount';
import { formatAmount } from '@/lib/format';
import { formatDuration } from '../hooks/use-now';
import { checksummed, type TokenQuote } from '../payment-request';
import { t } from '@/i18n/i18n';

/** SPEC.md /order/{id}: 'Provider error.' when the request never got an answer, else the error's text. */
function ethPriceErrorMessage(error: unknown): string {
  if (isApiError(error) && (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR')) return t('pay.quote.providerError');
  return getErrorMessage(error);
}

/** The live ETH price (GET /api/crypto/eth-price, asked again every 30 s), or SPEC.md's error text when it fails. */
export function LiveEthPrice() {
  const price = useEthPrice({ follow: true });
  if (price.isError) {
    return (
      <Alert variant="destructive">
        <CircleAlert aria-hidden="true" />
        <AlertDescription>{ethPriceErrorMessage(price.error)}</AlertDescription>
      </Alert>
    );
  }
  return (
    <p className="text-sm text-muted-foreground">
      {t('pay.quote.livePrice')}{' '}
      <span className="font-medium text-foreground tabular-nums">
        {price.data ? t('pay.quote.ethPrice', { price: formatAmount(price.data.price) }) : '…'}
      </span>
    </p>
  );
}

type QuoteDetailsProps = {
  quote: QuoteJson;
  /** Seconds until the quote's price lock ends; 0 once expired. */
  secondsLeft: number | undefined;
};

/** How long the quote holds: a countdown, then the page waits for the next quote. */
function TimeLeft({ secondsLeft }: { secondsLeft: number | undefined }) {
  const expired = secondsLeft === 0;
  return (
    <dd className={`text-right tabular-nums ${expired ? 'text-destructive' : ''}`} aria-live="polite">
      {secondsLeft === undefined ? '—' : expired ? t('pay.quote.expired') : t('pay.quote.left', { time: formatDuration(secondsLeft) })}
    </dd>
  );
}

/** The locked price and the exact amount to send, with the time the lock has left. */
export function QuoteDetails({ quote, secondsLeft }: QuoteDetailsProps) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1.5 rounded-lg border px-3 py-2.5 text-sm">
      <dt className="text-muted-foreground">{t('pay.quote.amount')}</dt>
      <dd className="text-right font-medium tabular-nums">{quote.amountEth} ETH</dd>
      <dt className="text-muted-foreground">{t('pay.quote.lockedPrice')}</dt>
      <dd className="text-right tabular-nums">{t('pay.quote.perEth', { price: formatAmount(quote.ethUsd) })}</dd>
      <dt className="text-muted-foreground">{t('pay.quote.priceLock')}</dt>
      <TimeLeft secondsLeft={secondsLeft} />
    </dl>
  );
}

/**
 * A token's quote: the amount in the token, what it is worth, the order's deposit address
 * the wallet sends it to (no tag: the address says which order it pays), and how long the
 * quote holds.
 */
export function TokenQuoteDetails({ quote, secondsLeft }: { quote: TokenQuote; secondsLeft: number | undefined }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1.5 rounded-lg border px-3 py-2.5 text-sm">
      <dt className="text-muted-foreground">{t('pay.quote.amount')}</dt>
      <dd className="text-right font-medium tabular-nums">{formatAssetAmount(quote.amount, quote.asset)}</dd>
      <dt className="text-muted-foreground">{t('pay.quote.value')}</dt>
      <dd className="text-right tabular-nums">{t('pay.quote.usd', { usd: formatAmount(quote.usdAmount) })}</dd>
      <dt className="text-muted-foreground">{t('pay.quote.sendTo')}</dt>
      {/* break-all: 42 characters do not fit a phone's line, and an address has no spaces to wrap at. */}
      <dd className="text-right font-mono text-xs break-all">{checksummed(quote.payTo)}</dd>
      <dt className="text-muted-foreground">{t('pay.quote.quote')}</dt>
      <TimeLeft secondsLeft={secondsLeft} />
    </dl>
  );
}
