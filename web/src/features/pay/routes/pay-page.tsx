import { useContext, useId, useState } from 'react';
import { Link } from '@/components/link';
import { CircleCheck } from 'lucide-react';
import { WagmiContext, WagmiProvider } from 'wagmi';
import type { AssetCode, OrderJson } from '@shop/core/contract';
import { ErrorAlert } from '@/components/error-alert';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { formatAssetAmount } from '@/lib/asset-amount';
import { formatMoney } from '@/lib/format';
import { wagmiConfig } from '@/lib/wagmi';
import { useAuthorizePayment } from '../api/authorize-payment';
import { useReportPayment } from '../api/report-payment';
import { ClaimTransfer } from '../components/claim-transfer';
import { ExchangePay } from '../components/exchange-pay';
import { OrderRefunds } from '../components/order-refunds';
import { PayWith } from '../components/pay-with';
import { PhonePay } from '../components/phone-pay';
import { PaymentProgress } from '../components/payment-progress';
import { LiveEthPrice, QuoteDetails, TokenQuoteDetails } from '../components/quote-details';
import { PayBySignature, signedPaymentPending } from '../components/signed-pay';
import { WalletError, WalletMessage, WalletSection } from '../components/wallet-section';
import { paidTxHash, useFollowPayment } from '../hooks/use-follow-payment';
import { secondsUntil, useNow } from '../hooks/use-now';
import { usePayWallet, type PayWallet } from '../hooks/use-pay-wallet';
import { useWalletFunds } from '../hooks/use-wallet-funds';
import { authorizationRequest, chosenQuote, isSignable, payOptions, type TokenQuote } from '../payment-request';
import { isMobileDevice, noGasForTransfer } from '../wallet-messages';

/**
 * SPEC.md: 'Pay {totalPrice} USD ({eth amount} ETH)', or the chosen token's amount
 * ('Pay 25.00 USD (25.00 USDC)'); an underpaid order pays its shortfall.
 */
export function payButtonLabel(order: OrderJson, token?: TokenQuote): string {
  const quote = token ?? order.quote;
  const usd = formatMoney(order.status === 'UNDERPAID' && quote ? quote.usdAmount : order.totalPrice);
  if (token) return t('pay.panel.payIn', { usd, amount: formatAssetAmount(token.amount, token.asset) });
  return order.quote ? t('pay.panel.payIn', { usd, amount: `${order.quote.amountEth} ETH` }) : t('pay.panel.pay', { usd });
}

function PaidNotice({ order, sentHash }: { order: OrderJson; sentHash: string | undefined }) {
  const hash = paidTxHash(order, sentHash);
  return (
    <Alert variant="success">
      <CircleCheck aria-hidden="true" />
      <AlertDescription>
        <p>{t('pay.panel.alreadyPaid')}</p>
        {hash ? (
          <Link to={`/order/${order._id}/purchased?tx=${encodeURIComponent(hash)}`} className="underline">
            {t('pay.panel.viewPayment')}
          </Link>
        ) : null}
      </AlertDescription>
    </Alert>
  );
}

function PayPanel({ order, wallet }: { order: OrderJson; wallet: PayWallet }) {
  const report = useReportPayment(order._id);
  const [sentHash, setSentHash] = useState<string>();
  const now = useNow();
  useFollowPayment(order, sentHash);

  // 'Pay with': ETH first; the buyer's choice holds while the api still offers it.
  const options = payOptions(order);
  const [picked, setPicked] = useState<AssetCode>('ETH');
  const offered = options.filter((o) => o.reason === null).map((o) => o.asset);
  const asset = offered.length === 0 || offered.includes(picked) ? picked : offered[0]!;
  // A choice the api stops offering (a token off its peg) gives way for good: the page
  // does not switch back under the buyer's hand when it returns.
  if (asset !== picked) setPicked(asset);
  const chosen = chosenQuote(order, asset);
  const quote = chosen?.quote ?? null;
  const token = chosen && chosen.asset !== 'ETH' ? chosen.quote : undefined;
  const secondsLeft = secondsUntil(quote?.expiresAt, now);
  const sentAndWaiting =
    sentHash !== undefined &&
    order.status !== 'UNDERPAID' &&
    !(order.payments ?? []).some((p) => p.txHash.toLowerCase() === sentHash.toLowerCase() && p.status === 'REJECTED');
  const canPay = !order.isPaid && order.status !== 'EXPIRED' && order.status !== 'CANCELLED';
  const isMobile = isMobileDevice();
  const noBrowserWallet = !wallet.hasWallet && !wallet.isConnected && !isMobile;
  // USDC by one signature (EIP-3009) when the shop sends those: offered whenever USDC is
  // chosen, and first when the wallet holds the USDC but too little ETH for a transfer's gas.
  const signable = token && isSignable(token) ? token : undefined;
  const funds = useWalletFunds(signable);
  const signFirst = funds !== undefined && funds.gasShort && !funds.tokenShort;
  const noGasId = useId();
  const authorize = useAuthorizePayment(order._id);
  // Accepted, and the order not read since: on its way as well.
  const accepted = authorize.isSuccess && order.authorization?._id !== authorize.data._id;
  const signedPending = accepted || signedPaymentPending(order);
  // One code on the page at a time: with the exchange panel open, its deposit address's
  // (a code of the payment request beside it is one an exchange app must not scan).
  const [exchangeOpen, setExchangeOpen] = useState(false);

  const onPay = async () => {
    if (!chosen) return;
    const hash = chosen.asset === 'ETH' ? await wallet.pay(chosen.quote) : await wallet.payToken(chosen.quote);
    if (!hash) return;
    setSentHash(hash);
    // The transfer is on its way either way: the chain indexer attributes it (by its tag, or its deposit address).
    // A failed report shows once, as the alert below.
    report.mutate({ txHash: hash, asset: chosen.asset });
  };

  const onSign = async () => {
    if (!signable) return;
    authorize.reset();
    const signed = await wallet.signTransfer(signable);
    if (!signed) return;
    // The shop checks it and answers at once; the order (followed every 1.5 s) says the rest.
    authorize.mutate(authorizationRequest(signable.asset, signed.auth, signed.signature));
  };
  const signButton = signable ? (
    <PayBySignature
      primary={signFirst}
      pending={wallet.isSigning || authorize.isPending}
      disabled={secondsLeft === 0 || wallet.isSigning || authorize.isPending || signedPending || sentAndWaiting}
      onSign={() => void onSign()}
    />
  ) : null;

  return (
    <Card role="region" aria-label={t('pay.panel.title')}>
      <CardHeader>
        <CardTitle className="text-lg">
          <h2>{t('pay.panel.title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {order.isPaid ? <PaidNotice order={order} sentHash={sentHash} /> : null}
        {canPay ? (
          <>
            {options.length > 1 ? <PayWith options={options} value={asset} onChange={setPicked} /> : null}
            {token ? null : <LiveEthPrice />}
            {chosen?.asset === 'ETH' ? <QuoteDetails quote={chosen.quote} secondsLeft={secondsLeft} /> : null}
            {token ? <TokenQuoteDetails quote={token} secondsLeft={secondsLeft} /> : null}
            {order.quoteError ? <ErrorAlert error={order.quoteError} /> : null}
            {/* Without a browser wallet on a desktop, the phone is the way to pay: shown first. */}
            {quote && noBrowserWallet ? <PhonePay quote={quote} primary withQrCode={!exchangeOpen} /> : null}
            <WalletSection wallet={wallet} />
            {/* A phone is not offered a code to scan with itself: it opens the request instead. */}
            {quote && !noBrowserWallet ? <PhonePay quote={quote} primary={false} withQrCode={!isMobile && !exchangeOpen} /> : null}
            {/* An exchange's withdrawal carries no tag and no signer: the order's own address pays it. */}
            {quote ? <ExchangePay quote={quote} onOpenChange={setExchangeOpen} /> : null}
            {/* A claim is for ETH that lost its tag; a token to the order's address needs none (any amount is this order's). */}
            {token ? null : <ClaimTransfer orderId={order._id} wallet={wallet} />}
          </>
        ) : null}
        {report.isError ? <ErrorAlert error={report.error} /> : null}
        <PaymentProgress order={order} sentHash={sentHash} />
      </CardContent>
      {canPay ? (
        <CardFooter className="flex-col gap-3">
          <WalletError wallet={wallet} />
          {/* The shop's refusal of a signed payment, in its own words. */}
          {authorize.isError ? <WalletMessage message={getErrorMessage(authorize.error)} /> : null}
          {signFirst ? signButton : null}
          <Button pending={wallet.isSending}
            className="w-full"
            size="lg"
            variant={signFirst ? 'outline' : 'default'}
            onClick={() => void onPay()}
            disabled={!quote || secondsLeft === 0 || wallet.isSending || sentAndWaiting || signedPending || signFirst}
            aria-describedby={signFirst ? noGasId : undefined}
          >
            {payButtonLabel(order, token)}
          </Button>
          {signFirst ? (
            <p id={noGasId} className="text-center text-xs text-muted-foreground">
              {noGasForTransfer()}
            </p>
          ) : (
            signButton
          )}
        </CardFooter>
      ) : null}
    </Card>
  );
}

/**
 * The wallet side of the pay page: the payment panel and the refunds, sharing one wallet (paying, claiming a transfer and moving a refund). This
 * module is all that loads wagmi and viem; the page around it (pay.tsx) shows the order
 * before it arrives.
 */
function PayColumn({ order }: { order: OrderJson }) {
  const wallet = usePayWallet();
  return (
    <div className="flex flex-col gap-8">
      <PayPanel order={order} wallet={wallet} />
      {order.refunds?.length ? <OrderRefunds orderId={order._id} refunds={order.refunds} wallet={wallet} /> : null}
    </div>
  );
}

/** The wallet column inside the shop's wallet context (a test gives its own context above). */
export function WalletPayColumn({ order }: { order: OrderJson }) {
  const column = <PayColumn order={order} />;
  return useContext(WagmiContext) ? column : <WagmiProvider config={wagmiConfig}>{column}</WagmiProvider>;
}
