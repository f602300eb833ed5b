import { CircleAlert, CircleCheck, Clock } from 'lucide-react';
import type { PayoutCheckJson } from '@shop/core/contract';
import { t } from '@/i18n/i18n';
import { shortHex } from '@/lib/format';
import { ShortHex } from './short-hex';

/** 'Checking 0x1234ab…cdef: It has 1 of 12 confirmations', 'Refused …: reason'. */
export function payoutCheckText(check: PayoutCheckJson): string {
  const key = check.status === 'CHECKING' ? 'adminPayments.payoutCheck.checking' : check.status === 'REFUSED' ? 'adminPayments.payoutCheck.refused' : 'adminPayments.payoutCheck.accepted';
  return t(key, { hash: shortHex(check.txHash), hasReason: check.reason ? 'yes' : 'no', reason: check.reason ?? '' });
}

/** The worker's verdict on the payout hash an admin gave last. */
export function PayoutCheckState({ check }: { check: PayoutCheckJson }) {
  const Icon = check.status === 'CHECKING' ? Clock : check.status === 'REFUSED' ? CircleAlert : CircleCheck;
  const tone =
    check.status === 'CHECKING' ? 'text-muted-foreground' : check.status === 'REFUSED' ? 'text-destructive' : 'text-success';
  return (
    <p title={check.txHash} className={`flex max-w-72 items-start gap-1.5 text-xs whitespace-normal ${tone}`}>
      <Icon aria-hidden="true" className="mt-px size-3.5 shrink-0" />
      <span>{payoutCheckText(check)}</span>
    </p>
  );
}

type PayoutStateProps = { status: string; payoutTxHash: string | null; check: PayoutCheckJson | null };

/** A payout's transaction once paid; before that, the check of the hash an admin gave, if any. */
export function PayoutState({ status, payoutTxHash, check }: PayoutStateProps) {
  if (status === 'PAID') return <ShortHex value={payoutTxHash} />;
  if (check) return <PayoutCheckState check={check} />;
  return <ShortHex value={null} />;
}
