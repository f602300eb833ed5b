import { useId } from 'react';
import { Link } from '@/components/link';
import { Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { NativeSelect, QuantityOptions } from '@/components/ui/native-select';
import { Price } from '@/components/price';
import { t } from '@/i18n/i18n';
import { addToCart, removeFromCart, type CartItem } from '@/stores/cart-store';

export function CartLine({ item }: { item: CartItem }) {
  const qtyId = useId();
  const href = `/product/${item._id}`;
  // A line stored before the stock fell still offers its own quantity.
  const maxQty = Math.max(Number(item.countInStock) || 0, item.qty);

  return (
    <li className="grid grid-cols-[4rem_minmax(0,1fr)_auto] items-center gap-x-4 gap-y-2 py-4 sm:grid-cols-[5rem_minmax(0,1fr)_7rem_auto_auto]">
      <Link to={href} tabIndex={-1} aria-hidden="true" className="row-span-2 sm:row-span-1">
        <img src={item.image} alt={item.name} className="aspect-square w-full rounded-md border bg-muted object-cover" />
      </Link>
      <Link to={href} className="truncate font-medium hover:underline">
        {item.name}
      </Link>
      <span className="col-start-2 row-start-2 text-sm font-semibold sm:col-start-auto sm:row-start-auto sm:text-right">
        <Price usd={item.price} />
      </span>
      <div className="col-start-3 row-start-1 justify-self-end sm:col-start-auto sm:row-start-auto">
        <label htmlFor={qtyId} className="sr-only">
          {t('cart.line.quantityOf', { name: item.name })}
        </label>
        <NativeSelect
          id={qtyId}
          value={item.qty}
          onChange={(event) => addToCart({ ...item, qty: Number(event.target.value) })}
        >
          <QuantityOptions max={maxQty} />
        </NativeSelect>
      </div>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t('cart.line.remove', { name: item.name })}

        className="col-start-3 row-start-2 justify-self-end text-destructive hover:text-destructive sm:col-start-auto sm:row-start-auto"
        onClick={() => removeFromCart(item._id)}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </li>
  );
}
