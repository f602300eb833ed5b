import { CircleAlert } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';

type PlaceOrderSummaryProps = {
  totalPrice: string;
  /** The server's message from the last failed attempt. */
  error: string | undefined;
  isPending: boolean;
  onPlaceOrder: () => void;
};

/** SPEC.md /placeorder: 'Order Summary' with 'Total', the server's message and 'Place Order'. */
export function PlaceOrderSummary({ totalPrice, error, isPending, onPlaceOrder }: PlaceOrderSummaryProps) {
  return (
    <Card role="region" aria-label="Order Summary">
      <CardHeader>
        <CardTitle className="text-xl">
          <h2>Order Summary</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="flex items-center justify-between border-y py-3">
          <dt className="font-medium">Total</dt>
          <dd className="text-lg font-semibold tabular-nums">${totalPrice}</dd>
        </dl>
        {error ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        ) : null}
      </CardContent>
      <CardFooter>
        {/* Deliberately enabled for an empty cart (SPEC.md): the server answers 'No order items'. */}
        <Button pending={isPending} className="w-full" onClick={onPlaceOrder} disabled={isPending} aria-busy={isPending}>
          Place Order
        </Button>
      </CardFooter>
    </Card>
  );
}
