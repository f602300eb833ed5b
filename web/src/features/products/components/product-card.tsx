import { Link } from '@/components/link';
import { Rating } from '@/components/rating';
import { Card, CardContent } from '@/components/ui/card';
import { Price } from '@/components/price';
import { t } from '@/i18n/i18n';
import { cn } from '@/lib/utils';
import type { Product } from '../types';

/**
 * `priority`: a card of the first row, whose image is the page's largest element: fetched
 * at once and early, where the others wait until they are scrolled near.
 */
export function ProductCard({ product, priority = false }: { product: Product; priority?: boolean }) {
  const inStock = product.countInStock > 0;
  const href = `/product/${product._id}`;
  return (
    <Card className="h-full gap-3 overflow-hidden pt-0">
      <Link to={href} tabIndex={-1} aria-hidden="true">
        <img
          src={product.image}
          alt={product.name}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          width={400}
          height={300}
          className="aspect-[4/3] w-full bg-muted object-cover"
        />
      </Link>
      <CardContent className="flex flex-1 flex-col gap-2">
        <h2 className="text-base font-semibold leading-snug">
          <Link to={href} className="hover:underline">
            {product.name}
          </Link>
        </h2>
        <Rating value={product.rating} text={t('products.reviews', { count: product.numReviews })} />
        <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-1">
          <span className="text-lg font-semibold">
            <Price usd={product.price} />
          </span>
          <span className={cn('text-sm font-medium', inStock ? 'text-success' : 'text-destructive')}>
            {inStock ? t('products.stock.available') : t('products.stock.out')}

          </span>
        </div>
      </CardContent>
    </Card>
  );
}
