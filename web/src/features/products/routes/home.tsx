import { Alert, AlertDescription } from '@/components/ui/alert';
import { PageSpinner } from '@/components/ui/spinner';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { SearchBox, useListParam } from '@/components/list-filters';
import { LoadMore } from '@/components/load-more';
import { useProducts } from '../api/get-products';
import { ProductCard } from '../components/product-card';

/** Cards in the first row on the widest layout (xl:grid-cols-4). */
const FIRST_ROW = 4;

export function HomePage() {
  const [q] = useListParam('q');
  const list = useProducts(q);
  const { isPending, isError, error } = list;
  const products = list.data ?? [];
  // The search box appears once the catalogue is longer than a page, or while a search is on.
  const searchable = Boolean(q) || list.hasNextPage;

  return (
    // At least a screen tall while the packages load, so the footer never moves up into
    // view and back down when the grid arrives (a layout shift).
    <section className="flex min-h-svh flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight">{t('products.home.heading')}</h1>
      {searchable && <SearchBox label={t('products.home.search')} placeholder={t('products.home.searchPlaceholder')} />}
      {isPending ? (
        <PageSpinner label={t('products.home.loading')} />
      ) : isError ? (
        <Alert variant="destructive">
          <AlertDescription>{t('error.withMessage', { message: getErrorMessage(error) })}</AlertDescription>
        </Alert>
      ) : products.length === 0 ? (
        <p className="text-muted-foreground">{q ? t('products.home.noMatch') : t('products.home.empty')}</p>
      ) : (
        <ul className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {products.map((product, i) => (
            <li key={product._id}>
              <ProductCard product={product} priority={i < FIRST_ROW} />
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} label={t('products.home.more')} />

    </section>
  );
}
