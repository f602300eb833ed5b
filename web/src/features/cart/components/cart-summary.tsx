import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { formatUsd } from '@/lib/format';
import { countCartItems, type Cart } from '@/stores/cart-store';

/** Where 'Submit Order' goes: /placeorder, through the login page for signed-out visitors. */
export const SUBMIT_ORDER_TARGET = '/login?redirect=/placeorder';

export function CartSummary({ cart }: { cart: Cart }) {
  const navigate = useNavigate();
  const count = countCartItems(cart);
  return (
    <Card aria-label="Cart summary" role="region">
      <CardHeader>
        <CardTitle className="text-xl">
          <h2>Sum : {count} packet</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-semibold">{formatUsd(cart.totalPrice)}</p>
      </CardContent>
      <CardFooter>
        <Button className="w-full" disabled={cart.cartItems.length === 0} onClick={() => navigate(SUBMIT_ORDER_TARGET)}>
          Submit Order
        </Button>
      </CardFooter>
    </Card>
  );
}
