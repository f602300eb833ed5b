import { Link } from '@/components/link';
import { ShoppingBasket } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { t } from '@/i18n/i18n';
import { useCart } from '@/stores/cart-store';
import { CartLine } from '../components/cart-line';
import { CartSummary } from '../components/cart-summary';

export function CartPage() {
  const cart = useCart();
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight">{t('cart.heading')}</h1>
      <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        {cart.cartItems.length === 0 ? (
          <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed px-6 py-12 text-center">
            <ShoppingBasket aria-hidden="true" className="size-10 text-muted-foreground" />
            <p className="text-lg font-medium">{t('cart.empty')}</p>
            <Button asChild variant="outline">
              <Link to="/">{t('notFound.backHome')}</Link>
            </Button>
          </div>
        ) : (
          <ul aria-label={t('cart.lines')}
 className="divide-y rounded-xl border px-4">
            {cart.cartItems.map((item) => (
              <CartLine key={item._id} item={item} />
            ))}
          </ul>
        )}
        <CartSummary cart={cart} />
      </div>
    </section>
  );
}
