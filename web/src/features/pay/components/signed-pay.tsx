import { useId } from 'react';
import { CircleAlert, CircleCheck, Signature } from 'lucide-react';
import type { OrderAuthorizationJson, OrderJson, RelayStatus } from '@shop/core/contract';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { t, type MessageKey } from '@/i18n/i18n';


type PayBySignatureProps = {
  /** The way offered first (the wallet cannot pay a transfer's gas): drawn as the main button. */
  primary: boolean;
  disabled: boolean;
  pending: boolean;
  onSign: () => void;
};

/** 'Pay with a signature (no ETH needed)', with what it does in one line. */
export function PayBySignature({ primary, disabled, pending, onSign }: PayBySignatureProps) {
  const noteId = useId();
  return (
    <div className="flex w-full flex-col gap-1.5">
      <Button
        size="lg"
        className="w-full"
        variant={primary ? 'default' : 'outline'}
        pending={pending}
        icon={<Signature aria-hidden="true" />}
        disabled={disabled}
        aria-describedby={noteId}
        onClick={onSign}
      >
        {t('pay.signed.button')}
      </Button>
      <p id={noteId} className="text-center text-xs text-muted-foreground">
        {t('pay.signed.note')}
      </p>
    </div>
  );
}

/**
 * True while the order's signed payment is on its way or arrived (the shop sending it, or
 * mined and being counted): a second payment from the page would pay twice. An
 * underpaid order's shortfall is a new payment.
 */
export function signedPaymentPending(order: Pick<OrderJson, 'isPaid' | 'status' | 'authorization'>): boolean {
  const status = order.authorization?.status;
  if (order.isPaid || !status) return false;
  return status === 'RECEIVED' || status === 'SENT' || (status === 'CONFIRMED' && order.status !== 'UNDERPAID');
}

/** Each relay status in words for the buyer (the api's `authorization.message`, in the page's language). */
const STATE_MESSAGE: Record<RelayStatus, MessageKey> = {
  RECEIVED: 'pay.signed.state.received',
  SENT: 'pay.signed.state.sent',
  CONFIRMED: 'pay.signed.state.confirmed',
  FAILED: 'pay.signed.state.failed',
  DROPPED: 'pay.signed.state.dropped',
};

/** Where the order's signed payment is. */
export function SignedPaymentState({ authorization }: { authorization: OrderAuthorizationJson }) {
  const { status } = authorization;
  const message = t(STATE_MESSAGE[status]);
  if (status === 'FAILED' || status === 'DROPPED') {
    return (
      <Alert variant="destructive">
        <CircleAlert aria-hidden="true" />
        <AlertDescription>{message}</AlertDescription>
      </Alert>
    );
  }
  return (
    <div role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
      {status === 'CONFIRMED' ? <CircleCheck aria-hidden="true" className="size-4 shrink-0 text-success" /> : <Spinner size="sm" aria-hidden="true" />}
      {message}
    </div>
  );
}
