import { centsToString, toCents, type OrderJson, type PaymentJson } from '@shop/core/contract';
import { CircleAlert, CircleCheck, Clock } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { paymentAmount } from '@/lib/asset-amount';
import { formatAmount } from '@/lib/format';
import { SignedPaymentState } from './signed-pay';
import { t } from '@/i18n/i18n';

/** The pay page's line for one reported or discovered transfer. */
export function paymentStateText(payment: PaymentJson): string {
  switch (payment.status) {
    case 'PENDING':
      return t('pay.progress.waiting', { confirmations: payment.confirmations, required: payment.requiredConfirmations });
    case 'COUNTED':
      return payment.usdValue === null ? t('pay.progress.confirmed') : t('pay.progress.confirmedUsd', { usd: formatAmount(payment.usdValue) });
    case 'REJECTED':
      return t('pay.progress.rejected', { reason: payment.reason ?? t('pay.progress.notValid') });
    case 'LATE':
      return payment.reason ? t('pay.progress.lateReason', { reason: payment.reason }) : t('pay.progress.late');
    case 'UNRESOLVED':
      return t('pay.progress.unresolved');
    case 'REFUNDED':
      return t('pay.progress.refunded');
    default:
      return payment.status;
  }
}

/** What is still due on an underpaid order: the quote's amount, else total minus paid. */
export function amountDue(order: OrderJson): string {
  if (order.quote) return formatAmount(order.quote.usdAmount);
  try {
    const due = toCents(order.totalPrice) - toCents(order.paidUsd);
    return formatAmount(centsToString(due > 0n ? due : 0n));
  } catch {
    return formatAmount(order.totalPrice);
  }
}

function shortHash(hash: string): string {
  return hash.length > 20 ? `${hash.slice(0, 10)}…${hash.slice(-8)}` : hash;
}

function PaymentRow({ payment }: { payment: PaymentJson }) {
  const Icon = payment.status === 'COUNTED' ? CircleCheck : payment.status === 'REJECTED' ? CircleAlert : Clock;
  const tone =
    payment.status === 'COUNTED' ? 'text-success' : payment.status === 'REJECTED' ? 'text-destructive' : 'text-muted-foreground';
  const amount = paymentAmount(payment);
  return (
    <li className="flex flex-col gap-0.5 py-2 text-sm">
      <span className="flex flex-wrap items-baseline justify-between gap-x-3">
        <code className="font-mono text-xs" title={payment.txHash}>
          {shortHash(payment.txHash)}
        </code>
        {amount === '—' ? null : <span className="font-medium tabular-nums">{amount}</span>}
      </span>
      <span className={`flex items-center gap-1.5 ${tone}`}>
        <Icon aria-hidden="true" className="size-4 shrink-0" />
        {paymentStateText(payment)}
      </span>
    </li>
  );
}

type PaymentProgressProps = { order: OrderJson; sentHash: string | undefined };

/** The order's verification, live: each transfer's state and the order's overall standing. */
export function PaymentProgress({ order, sentHash }: PaymentProgressProps) {
  const payments = order.payments ?? [];
  const waitingForFirstSight = sentHash !== undefined && !payments.some((p) => p.txHash.toLowerCase() === sentHash.toLowerCase());

  return (
    <div role="region" aria-label={t('pay.progress.region')} className="flex flex-col gap-3">
      {order.status === 'UNDERPAID' ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{t('pay.progress.underpaid', { usd: amountDue(order) })}</AlertDescription>
        </Alert>
      ) : null}
      {order.status === 'LATE' ? (
        <Alert>
          <Clock aria-hidden="true" />
          <AlertDescription>{t('pay.progress.orderLate')}</AlertDescription>
        </Alert>
      ) : null}
      {order.status === 'EXPIRED' ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{t('pay.progress.expired')}</AlertDescription>
        </Alert>
      ) : null}
      {order.status === 'CANCELLED' ? (
        <Alert>
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{t('pay.progress.cancelled')}</AlertDescription>
        </Alert>
      ) : null}
      {order.status === 'VERIFYING' ? (
        <div className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner size="sm" aria-hidden="true" /> {t('pay.progress.verifying')}
        </div>
      ) : null}
      {!order.isPaid && order.authorization ? <SignedPaymentState authorization={order.authorization} /> : null}
      {waitingForFirstSight ? (
        <div className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner size="sm" aria-hidden="true" /> {t('pay.progress.sent', { hash: shortHash(sentHash) })}
        </div>
      ) : null}
      {payments.length > 0 ? (
        <ul aria-label={t('pay.progress.payments')} className="divide-y rounded-lg border px-3">
          {payments.map((payment) => (
            <PaymentRow key={payment.txHash} payment={payment} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
