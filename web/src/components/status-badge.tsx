import { Badge, type BadgeProps } from '@/components/ui/badge';

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
 * Statuses whose own word is internal: a cashout (or refund) REQUESTED and one whose
 * operator e-mail went out (NOTIFIED) both wait for an admin to pay it, and read so.
 */
const labels: Record<string, string> = {
  REQUESTED: 'Waiting to be paid',
  NOTIFIED: 'Waiting to be paid',
};

/** 'PENDING_PAYMENT' -> 'Pending payment'. */
export function statusText(status: string): string {
  const label = labels[status];
  if (label) return label;
  const words = status.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function StatusBadge({ status }: { status: string }) {
  return <Badge variant={variants[status] ?? 'secondary'}>{statusText(status)}</Badge>;
}
