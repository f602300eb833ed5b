import { t } from '@/i18n/i18n';
import { cn } from '@/lib/utils';

export function StockStatus({ countInStock, className }: { countInStock: number; className?: string }) {
  const inStock = countInStock > 0;
  return (
    <span className={cn('text-sm font-medium', inStock ? 'text-success' : 'text-destructive', className)}>
      {inStock ? t('products.stock.available') : t('products.stock.out')}

    </span>
  );
}
