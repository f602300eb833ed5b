import { Badge, type BadgeProps } from '@/components/ui/badge';

type Variant = NonNullable<BadgeProps['variant']>;

const variants: Record<string, Variant> = {
  REQUESTED: 'secondary',
  NOTIFIED: 'outline',
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

/** 'PENDING_PAYMENT' -> 'Pending payment'. */
export function statusText(status: string): string {
  const words = status.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function StatusBadge({ status }: { status: string }) {
  return <Badge variant={variants[status] ?? 'secondary'}>{statusText(status)}</Badge>;
}
