import { Badge, type BadgeProps } from '@/components/ui/badge';
import { t, type MessageKey } from '@/i18n/i18n';

type Variant = NonNullable<BadgeProps['variant']>;

const variants: Record<string, Variant> = {
  REQUESTED: 'secondary',
  NOTIFIED: 'secondary',
  PAID: 'success',
  COUNTED: 'success',
  REJECTED: 'destructive',
  // Cashouts: held for a wallet new to the account; cancelled by its owner.
  HELD: 'outline',
  CANCELLED: 'destructive',
  UNRESOLVED: 'destructive',
  LATE: 'secondary',
  // Webhook deliveries (PENDING is 'secondary', as any status not listed).
  DELIVERED: 'success',
  FAILED: 'destructive',
};

/**
 * Each status's words. REQUESTED and NOTIFIED are internal: a cashout (or refund) requested
 * and one whose operator e-mail went out both wait for an admin to pay it, and read so.
 */
const labels: Record<string, MessageKey> = {
  REQUESTED: 'status.waitingToBePaid',
  NOTIFIED: 'status.waitingToBePaid',
  PENDING: 'status.pending',
  PENDING_PAYMENT: 'status.pendingPayment',
  VERIFYING: 'status.verifying',
  UNDERPAID: 'status.underpaid',
  LATE: 'status.late',
  PAID: 'status.paid',
  EXPIRED: 'status.expired',
  DELETED: 'status.deleted',
  CANCELLED: 'status.cancelled',
  COUNTED: 'status.counted',
  REJECTED: 'status.rejected',
  UNRESOLVED: 'status.unresolved',
  REFUNDED: 'status.refunded',
  HELD: 'status.held',
  APPROVED: 'status.approved',
  DELIVERED: 'status.delivered',
  FAILED: 'status.failed',
  RECEIVED: 'status.received',
  SENT: 'status.sent',
  CONFIRMED: 'status.confirmed',
  DROPPED: 'status.dropped',
  CHECKING: 'status.checking',
  ACCEPTED: 'status.accepted',
  REFUSED: 'status.refused',
};

/** 'PENDING_PAYMENT' -> 'Pending payment', in the active language (a status without words of its own: its code, in words). */
export function statusText(status: string): string {
  const label = labels[status];
  if (label) return t(label);
  const words = status.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function StatusBadge({ status }: { status: string }) {
  return <Badge variant={variants[status] ?? 'secondary'}>{statusText(status)}</Badge>;
}
