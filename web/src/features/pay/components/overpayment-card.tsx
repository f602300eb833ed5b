import { Undo2, Wallet } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { OverpaymentJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';
import { formatMoney } from '@/lib/format';
import { useSettleOverpayment, type OverpaymentAction } from '../api/settle-overpayment';

/** Where a refund of the overpayment goes: each transfer's part back to the address that sent it. */
function RefundDestination({ overpayment }: { overpayment: OverpaymentJson }) {
  if (!overpayment.refundable) {
    return <p className="text-muted-foreground">It was not sent by a single address: to have it refunded, contact the shop.</p>;
  }
  if (overpayment.from) {
    return (
      <p className="text-muted-foreground">
        Or have it sent back to the address that paid, <span className="font-mono text-xs break-all">{overpayment.from}</span>.
      </p>
    );
  }
  return (
    <div className="text-muted-foreground">
      <p>Or have it sent back: each transfer's part to the address that sent it.</p>
      <ul className="mt-1 list-disc pl-5" aria-label="Refund of each transfer">
        {overpayment.parts.map((part) => (
          <li key={part.txHash}>
            {part.from ? (
              <>
                {part.eth} ETH to <span className="font-mono text-xs break-all">{part.from}</span>
              </>
            ) : (
              `${part.eth} ETH: not sent by a single address, so the shop refunds it to a wallet you name`
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

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
          {overpayment.creditUsd === null
            ? 'Added to your active balance, it is worth what its ETH is worth at today\'s price, at most the amount above.'
            : `Added to your active balance: $${formatMoney(overpayment.creditUsd)} (what its ETH is worth at today's price, at most the amount above).`}
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
          Add to my balance
        </Button>
        {overpayment.refundable ? (
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
