import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Price } from '@/components/price';
import { t } from '@/i18n/i18n';
import { countCartItems, type Cart } from '@/stores/cart-store';

/** Where 'Submit Order' goes: /placeorder, through the login page for signed-out visitors. */
export const SUBMIT_ORDER_TARGET = '/login?redirect=/placeorder';

export function CartSummary({ cart }: { cart: Cart }) {
  const navigate = useNavigate();
  const count = countCartItems(cart);
  return (
    <Card aria-label={t('cart.summary.label')} role="region">
      <CardHeader>
        <CardTitle className="text-xl">
          <h2>{t('cart.summary.sum', { count })}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-semibold">
          <Price usd={cart.totalPrice} />
        </p>
      </CardContent>
      <CardFooter>
        <Button className="w-full" disabled={cart.cartItems.length === 0} onClick={() => navigate(SUBMIT_ORDER_TARGET)}>
          {t('cart.summary.submit')}

        </Button>
      </CardFooter>
    </Card>
  );
}
