import { Undo2, Wallet } from 'lucide-react';
import { toast } from 'sonner';
import type { OverpaymentJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';
import { formatMoney } from '@/lib/format';
import { useSettleOverpayment, type OverpaymentAction } from '../api/settle-overpayment';

/** A paid order that received more than its total: the buyer adds the rest to their balance or has it refunded. */
export function OverpaymentCard({ orderId, overpayment }: { orderId: string; overpayment: OverpaymentJson }) {
  const settle = useSettleOverpayment(orderId);
  const busy = (action: OverpaymentAction) => settle.isPending && settle.variables === action;

  const choose = (action: OverpaymentAction) =>
    settle.mutate(action, {
      onSuccess: (result) => toast.success(result.message),
      onError: (error) => toast.error(getErrorMessage(error)),
    });

  return (
    <Card role="region" aria-label="Overpayment">
      <CardHeader>
        <CardTitle className="text-lg">
          <h2>Overpayment</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm">
        <p>
          You paid ${formatMoney(overpayment.usd)} ({overpayment.eth} ETH) more than the order total.
        </p>
        <p className="text-muted-foreground">
          {overpayment.from ? (
            <>
              Add it to your active balance, or have it sent back to the address that paid,{' '}
              <span className="font-mono text-xs break-all">{overpayment.from}</span>.
            </>
          ) : (
            'Add it to your active balance. The address that paid is unknown: to have it refunded, contact the shop.'
          )}
        </p>
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        <Button
          pending={busy('balance')}
          icon={<Wallet aria-hidden="true" />}
          disabled={settle.isPending}
          onClick={() => choose('balance')}
        >
          Add to my balance
        </Button>
        {overpayment.from ? (
          <Button
            variant="outline"
            pending={busy('refund')}
            icon={<Undo2 aria-hidden="true" />}
            disabled={settle.isPending}
            onClick={() => choose('refund')}
          >
            Refund to my wallet
          </Button>
        ) : null}
      </CardFooter>
    </Card>
  );
}
