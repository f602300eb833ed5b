import { useId, useState } from 'react';
import { ChevronDown, Copy, Landmark } from 'lucide-react';
import type { QuoteJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { copyToClipboard } from '@/lib/clipboard';
import { formatAssetAmount } from '@/lib/asset-amount';
import { cn } from '@/lib/utils';
import { checksummed, type TokenQuote } from '../payment-request';
import { PaymentQr } from './payment-qr';

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
    <section aria-label="Pay from an exchange" className="rounded-lg border">
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
          Paying from an exchange?
        </span>
        <ChevronDown aria-hidden="true" className={cn('transition-transform', open && 'rotate-180')} />
      </Button>
      {open ? (
        <div id={panelId} className="flex flex-col gap-3 border-t p-3 text-sm">
          {/* One text node: the sentence is found whole, as a buyer reads it. */}
          <h3 className="font-semibold">{`Paying from an exchange? Send at least ${amount} to this address`}</h3>
          <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
            {/* On a phone too: an exchange app can read the code from a screenshot, and it is the page's only code. */}
            <PaymentQr uri={depositLink(address, quote.chainId)} label="QR code of the deposit address" testId="deposit-qr" />
            <div className="flex w-full min-w-0 flex-col gap-2">
              <span className="text-muted-foreground">This order&apos;s deposit address</span>
              {/* break-all: 42 characters do not fit a phone's line, and an address has no spaces to wrap at. */}
              <code className="rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all">{address}</code>
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="w-fit"
                icon={<Copy aria-hidden="true" />}
                onClick={() => void copyToClipboard(address, 'Copy to clipboard', 'Could not copy; select the address and copy it by hand.')}
              >
                Copy address
              </Button>
            </div>
          </div>
          <ul aria-label="What happens with more or less" className="flex list-disc flex-col gap-1 pl-5 text-muted-foreground">
            <li>
              Less arrives (an exchange may take its fee out of it): the order stays underpaid, and this page shows the rest to send to
              the same address.
            </li>
            <li>More arrives: the order is paid; add the extra to your balance from this order's page, or ask the shop to refund it to a wallet you name (an exchange's wallet is not yours to refund to).</li>
            <li className="wrap-anywhere">
              {token
                ? `Ethereum network only: send ${token.asset} on Ethereum mainnet (the token at ${checksummed(token.tokenAddress)}), not another token and not another network.`
                : 'Ethereum network only: send ETH on Ethereum mainnet, not a token and not another network.'}
            </li>
            <li>
              Sent after the price lock ends: it is valued at the price when it arrives. It pays the order if it still covers the total;
              otherwise the shop resolves it with you.
            </li>
          </ul>
        </div>
      ) : null}
    </section>
  );
}
