import type { RefundJson } from '@shop/core/contract';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { StatusBadge } from '@/components/status-badge';
import type { PayWallet } from '../hooks/use-pay-wallet';
import { marks, withParts } from '@/i18n/rich-text';
import { RefundWalletForm } from './refund-wallet-form';
import { t } from '@/i18n/i18n';

/** A requested refund can go to another wallet until a payout for it is being checked or was accepted. */
function canChangeWallet(refund: RefundJson): boolean {
  return refund.status === 'REQUESTED' && refund.check?.status !== 'CHECKING' && refund.check?.status !== 'ACCEPTED';
}

type OrderRefundsProps = { orderId: string; refunds: RefundJson[]; wallet: PayWallet };

/**
 * The order's refunds: how much, where to, and the payout once the shop has sent it. The
 * sender of a requested refund's ETH may send it to another wallet.
 */
export function OrderRefunds({ orderId, refunds, wallet }: OrderRefundsProps) {
  return (
    <Card role="region" aria-label={t('pay.refunds.title')}>
      <CardHeader>
        <CardTitle className="text-lg">
          <h2>{t('pay.refunds.title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="divide-y rounded-lg border px-3">
          {refunds.map((refund) => (
            <li key={refund._id} className="flex flex-col gap-1 py-2 text-sm">
              <div className="flex items-center justify-between gap-2">
                <span className="font-medium tabular-nums">{refund.amountText}</span>
                <StatusBadge status={refund.status} />
              </div>
              <span className="text-muted-foreground">
                {withParts(t('pay.refunds.to', marks('wallet')), { wallet: <span className="font-mono text-xs break-all">{refund.wallet}</span> })}
              </span>
              {refund.status === 'PAID' && refund.payoutTxHash ? (
                <span className="text-muted-foreground">
                  {withParts(t('pay.refunds.sentIn', marks('hash')), { hash: <code className="font-mono text-xs break-all">{refund.payoutTxHash}</code> })}
                </span>
              ) : null}
              {canChangeWallet(refund) ? <RefundWalletForm orderId={orderId} refund={refund} wallet={wallet} /> : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
