import { Link } from 'react-router-dom';
import { Rating } from '@/components/rating';
import { Card, CardContent } from '@/components/ui/card';
import { formatUsd } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { Product } from '../types';

export function ProductCard({ product }: { product: Product }) {
  const inStock = product.countInStock > 0;
  const href = `/product/${product._id}`;
  return (
    <Card className="h-full gap-3 overflow-hidden pt-0">
      <Link to={href} tabIndex={-1} aria-hidden="true">
        <img
          src={product.image}
          alt={product.name}
          loading="lazy"
          className="aspect-[4/3] w-full bg-muted object-cover"
        />
      </Link>
      <CardContent className="flex flex-1 flex-col gap-2">
        <h2 className="text-base font-semibold leading-snug">
          <Link to={href} className="hover:underline">
            {product.name}
          </Link>
        </h2>
        <Rating value={product.rating} text={`${product.numReviews} reviews`} />
        <div className="mt-auto flex items-center justify-between gap-2 pt-1">
          <span className="text-lg font-semibold">{formatUsd(product.price)}</span>
          <span className={cn('text-sm font-medium', inStock ? 'text-success' : 'text-destructive')}>
            {inStock ? 'Available' : 'Out of Stock'}
          </span>
        </div>
      </CardContent>
    </Card>
  );
}
