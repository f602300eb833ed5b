import type { ReactNode } from 'react';
import { Smartphone } from 'lucide-react';
import { exactEth, paymentLink, type QuoteJson } from '@shop/core/contract';
import { useShopNetwork } from '@/api/get-shop-config';
import { formatAssetAmount } from '@/lib/asset-amount';
import { tokenPaymentLink, type TokenQuote } from '../payment-request';
import { marks, withParts } from '@/i18n/rich-text';
import { PaymentQr } from './payment-qr';
import { t } from '@/i18n/i18n';

/** The EIP-681 request of a quote and what to say about its amount. */
function phoneRequest(quote: QuoteJson | TokenQuote): { link: string; send: ReactNode } {
  if ('asset' in quote) {
    // A token goes to the order's own address: no tag, so no exact amount to insist on.
    return {
      link: tokenPaymentLink(quote),
      send: (
        <>{withParts(t('pay.phone.sendsToken', { asset: quote.asset, ...marks('amount') }), { amount: <strong className="font-mono">{formatAssetAmount(quote.amount, quote.asset)}</strong> })}</>
      ),
    };
  }
  return {
    link: paymentLink(quote),
    send: (
      <>{withParts(t('pay.phone.sendEth', marks('amount')), { amount: <strong className="break-all font-mono">{exactEth(quote.amountWei)} ETH</strong> })}</>
    ),
  };
}

/**
 * Paying from a phone wallet: the quote as an EIP-681 payment request, as a QR code to
 * scan (drawn by qrcode.react) and as a link to open. ETH's exact value in wei carries the
 * order's tag, so the text asks for the amount to be sent exactly; a token's request is
 * its `transfer` to the order's deposit address. The page follows the order by itself:
 * the shop's indexer finds the transfer without a report.
 */
export function PhonePay({ quote, primary, withQrCode = true }: { quote: QuoteJson | TokenQuote; primary: boolean; withQrCode?: boolean }) {
  const { link, send } = phoneRequest(quote);
  const network = useShopNetwork();
  // A wallet app reads only the chain id (EIP-681): on a test shop, say which network it is.
  const testNetwork = network?.testNetwork ? (
    <p data-testid="payment-request-network" className="font-medium">
      {t('pay.phone.testNetwork', { name: network.name, chainId: quote.chainId })}
    </p>
  ) : null;
  if (!withQrCode) {
    // On the phone itself (the request opens in a wallet app: nothing to scan), or while the
    // exchange panel shows its deposit address's code, the only one on the page.
    return (
      <section aria-label={t('pay.phone.region')} className="flex flex-col gap-2 rounded-lg border p-3 text-sm">
        <h3 className="flex items-center gap-2 font-semibold">
          <Smartphone aria-hidden="true" className="size-4" />
          {t('pay.phone.otherApp')}
        </h3>
        <p>{send}</p>
        {testNetwork}
        <a href={link} className="w-fit font-medium underline underline-offset-4">
          {t('pay.phone.open')}
        </a>
      </section>
    );
  }
  return (
    <section aria-label={t('pay.phone.region')} className="flex flex-col gap-3 rounded-lg border p-3">
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        <Smartphone aria-hidden="true" className="size-4" />
        {primary ? t('pay.phone.primary') : t('pay.phone.secondary')}
      </h3>
      <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        <PaymentQr uri={link} label={t('pay.phone.qr')} testId="payment-qr" />
        <div className="flex min-w-0 flex-col gap-2 text-sm">
          <p>
            {t('pay.phone.scan')} {send}
          </p>
          {testNetwork}
          <a href={link} className="w-fit font-medium underline underline-offset-4">
            {t('pay.phone.open')}
          </a>
          <p className="text-muted-foreground">{t('pay.phone.follows')}</p>
        </div>
      </div>
    </section>
  );
}
