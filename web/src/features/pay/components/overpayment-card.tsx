import { Undo2, Wallet } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { OverpaymentJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';
import { formatAmount } from '@/lib/format';
import { marks, withParts } from '@/i18n/rich-text';
import { useSettleOverpayment, type OverpaymentAction, type SettledOverpayment } from '../api/settle-overpayment';
import { t } from '@/i18n/i18n';

/** Where a refund of the overpayment goes: each transfer's part back to the address that sent it. */
function RefundDestination({ overpayment }: { overpayment: OverpaymentJson }) {
  if (!overpayment.refundable) {
    return <p className="text-muted-foreground">{t('pay.overpayment.notRefundable')}</p>;
  }
  if (overpayment.from) {
    return (
      <p className="text-muted-foreground">
        {withParts(t('pay.overpayment.sendBackTo', marks('address')), { address: <span className="font-mono text-xs break-all">{overpayment.from}</span> })}
      </p>
    );
  }
  return (
    <div className="text-muted-foreground">
      <p>{t('pay.overpayment.sendBackParts')}</p>
      <ul className="mt-1 list-disc pl-5" aria-label={t('pay.overpayment.parts')}>
        {overpayment.parts.map((part) => (
          <li key={part.txHash}>
            {part.from ? (
              withParts(t('pay.overpayment.partTo', { eth: part.eth ?? '', ...marks('address') }), { address: <span className="font-mono text-xs break-all">{part.from}</span> })
            ) : (
              t('pay.overpayment.partNamed', { eth: part.eth ?? '' })
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The toast of a settled overpayment, from the api's numbers (its own text is English only). */
function settledText(action: OverpaymentAction, result: SettledOverpayment, overpayment: OverpaymentJson): string {
  if (action === 'balance') return t('pay.overpayment.credited', { amount: formatAmount(result.credited ?? overpayment.creditUsd ?? overpayment.usd) });
  const sent = (result.refunds ?? 1) > 1 ? t('pay.overpayment.refundsRequested') : t('pay.overpayment.refundRequested');
  return result.rest ? t('pay.overpayment.refundRest', { sent }) : sent;
}

/** A paid order that received more than its total: the buyer adds the rest to their balance or has it refunded. */
export function OverpaymentCard({ orderId, overpayment }: { orderId: string; overpayment: OverpaymentJson }) {
  const settle = useSettleOverpayment(orderId);
  const busy = (action: OverpaymentAction) => settle.isPending && settle.variables === action;

  const choose = (action: OverpaymentAction) =>
    settle.mutate(action, {
      onSuccess: (result) => toast.success(settledText(action, result, overpayment)),
      onError: (error) => toast.error(getErrorMessage(error)),
    });

  return (
    <Card role="region" aria-label={t('pay.overpayment.title')}>
      <CardHeader>
        <CardTitle className="text-lg">
          <h2>{t('pay.overpayment.title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm">
        <p>{t('pay.overpayment.paid', { usd: formatAmount(overpayment.usd), eth: overpayment.eth })}</p>
        <p className="text-muted-foreground">
          {overpayment.creditUsd === null
            ? t('pay.overpayment.credit')
            : t('pay.overpayment.creditUsd', { usd: formatAmount(overpayment.creditUsd) })}
        </p>
        <RefundDestination overpayment={overpayment} />
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        <Button
          pending={busy('balance')}
          icon={<Wallet aria-hidden="true" />}
          disabled={settle.isPending}
          onClick={() => choose('balance')}
        >
          {t('pay.overpayment.toBalance')}
        </Button>
        {overpayment.refundable ? (
          <Button
            variant="outline"
            pending={busy('refund')}
            icon={<Undo2 aria-hidden="true" />}
            disabled={settle.isPending}
            onClick={() => choose('refund')}
          >
            {t('pay.overpayment.refund')}
          </Button>
        ) : null}
      </CardFooter>
    </Card>
  );
}
