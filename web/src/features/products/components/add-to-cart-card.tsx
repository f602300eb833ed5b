import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ShoppingCart } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { NativeSelect, QuantityOptions } from '@/components/ui/native-select';
import { Price } from '@/components/price';
import { t } from '@/i18n/i18n';
import { useValueBeforeApp } from '@/lib/value-before-app';
import { addToCart } from '@/stores/cart-store';
import type { Product } from '../types';
import { StockStatus } from './stock-status';

/** Price, status, the count selector (only when in stock) and 'Add to Cart'. */
export function AddToCartCard({ product }: { product: Product }) {
  const navigate = useNavigate();
  const qtyId = useId();
  const [qty, setQty] = useState(1);
  // A quantity picked on the drawn page before the app ran is the one added.
  const qtyField = useValueBeforeApp<HTMLSelectElement>((picked) => setQty(Number(picked)), qty);
  const inStock = product.countInStock > 0;

  const add = () => {
    addToCart({ ...product, qty });
    navigate('/cart');
  };

  return (
    <Card className="gap-0 py-0">
      <CardContent className="divide-y px-0">
        <div className="flex items-center justify-between gap-4 px-5 py-3">
          <span className="text-sm text-muted-foreground">{t('products.addToCart.price')}</span>
          <span className="text-lg font-semibold">
            <Price usd={product.price} />
          </span>
        </div>
        <div className="flex items-center justify-between gap-4 px-5 py-3">
          <span className="text-sm text-muted-foreground">{t('products.addToCart.status')}</span>
          <StockStatus countInStock={product.countInStock} />
        </div>
        {inStock ? (
          <div className="flex items-center justify-between gap-4 px-5 py-3">
            <label htmlFor={qtyId} className="text-sm text-muted-foreground">
              {t('products.addToCart.count')}
            </label>
            <NativeSelect ref={qtyField} id={qtyId} value={qty} onChange={(event) => setQty(Number(event.target.value))}>
              <QuantityOptions max={product.countInStock} />
            </NativeSelect>
          </div>
        ) : null}
        <div className="px-5 py-4">
          <Button className="w-full" disabled={!inStock} onClick={add}>
            <ShoppingCart aria-hidden="true" />
            {t('products.addToCart.add')}

          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
