import { useId, useState } from 'react';
import { ChevronDown, Copy, Landmark } from 'lucide-react';
import type { QuoteJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { copyToClipboard } from '@/lib/clipboard';
import { formatAssetAmount } from '@/lib/asset-amount';
import { cn } from '@/lib/utils';
import { checksummed, type TokenQuote } from '../payment-request';
import { PaymentQr } from './payment-qr';
import { t } from '@/i18n/i18n';

/**
 * EIP-681 for the deposit address with no value: an exchange rounds what it withdraws and
 * cannot be told an exact amount by a link, and any amount sent here is this order's.
 */
function depositLink(depositAddress: string, chainId: number): string {
  return `ethereum:${depositAddress}@${chainId}`;
}

type ExchangePayProps = {
  /** The ETH quote, or the chosen token's: the panel asks for its amount in its asset. */
  quote: QuoteJson | TokenQuote;
  /** Told when the panel opens or closes: while it is open, its code is the only one on the page. */
  onOpenChange?: (open: boolean) => void;
};

/**
 * Paying from an exchange: the order's own deposit address. An exchange's withdrawal loses
 * the tag in the amount and comes from a wallet the buyer cannot sign for, so the address
 * itself says which order it pays. Collapsed at first: most buyers pay from a wallet, and
 * the routes above stay the ones they see. On an underpaid order the quote is the top-up,
 * so the same panel asks for what is still due, to the same address.
 */
export function ExchangePay({ quote, onOpenChange }: ExchangePayProps) {
  const panelId = useId();
  const [open, setOpen] = useState(false);
  if (!quote.depositAddress) return null;
  const address = checksummed(quote.depositAddress);
  const token = 'asset' in quote ? quote : undefined;
  const amount = 'asset' in quote ? formatAssetAmount(quote.amount, quote.asset) : `${quote.amountEth} ETH`;
  const toggle = () => {
    setOpen(!open);
    onOpenChange?.(!open);
  };

  return (
    <section aria-label={t('pay.exchange.region')} className="rounded-lg border">
      <Button
        type="button"
        variant="ghost"
        className="h-auto w-full justify-between px-3 py-2.5 text-left font-semibold"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={toggle}
      >
        <span className="flex items-center gap-2">
          <Landmark aria-hidden="true" />
          {t('pay.exchange.toggle')}
        </span>
        <ChevronDown aria-hidden="true" className={cn('transition-transform', open && 'rotate-180')} />
      </Button>
      {open ? (
        <div id={panelId} className="flex flex-col gap-3 border-t p-3 text-sm">
          {/* One text node: the sentence is found whole, as a buyer reads it. */}
          <h3 className="font-semibold">{t('pay.exchange.heading', { amount })}</h3>
          <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
            {/* On a phone too: an exchange app can read the code from a screenshot, and it is the page's only code. */}
            <PaymentQr uri={depositLink(address, quote.chainId)} label={t('pay.exchange.qr')} testId="deposit-qr" />
            <div className="flex w-full min-w-0 flex-col gap-2">
              <span className="text-muted-foreground">{t('pay.exchange.address')}</span>
              {/* break-all: 42 characters do not fit a phone's line, and an address has no spaces to wrap at. */}
              <code className="rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all">{address}</code>
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="w-fit"
                icon={<Copy aria-hidden="true" />}
                onClick={() => void copyToClipboard(address, t('pay.exchange.copied'), t('pay.exchange.copyFailed'))}
              >
                {t('pay.exchange.copy')}
              </Button>
            </div>
          </div>
          <ul aria-label={t('pay.exchange.rules')} className="flex list-disc flex-col gap-1 pl-5 text-muted-foreground">
            <li>{t('pay.exchange.less')}</li>
            <li>{t('pay.exchange.more')}</li>
            <li className="wrap-anywhere">
              {token
                ? t('pay.exchange.networkToken', { asset: token.asset, tokenAddress: checksummed(token.tokenAddress) })
                : t('pay.exchange.networkEth')}
            </li>
            <li>{t('pay.exchange.late')}</li>
          </ul>
        </div>
      ) : null}
    </section>
  );
}
