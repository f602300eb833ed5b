import { Link } from '@/components/link';
import { ShoppingCart } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { t } from '@/i18n/i18n';
import { useCartCount } from '@/stores/cart-store';

/** The cart and its count: always in the header's top row, on a phone too (never inside the small-screen menu). */
export function CartLink() {
  const count = useCartCount();
  return (
    <Button asChild variant="ghost">
      <Link to="/cart">
        <ShoppingCart aria-hidden="true" />
        {t('header.cart')}

        {count > 0 ? (
          <Badge variant="success" className="rounded-full px-1.5">
            {count}
          </Badge>
        ) : null}
      </Link>
    </Button>
  );
}
