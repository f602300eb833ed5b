import { useParams } from 'react-router-dom';
import { termCredit } from '@shop/core/contract';
import { BackLink } from '@/components/back-link';
import { ErrorAlert } from '@/components/error-alert';
import { Rating } from '@/components/rating';
import { Price } from '@/components/price';
import { PageSpinner } from '@/components/ui/spinner';
import { t } from '@/i18n/i18n';
import { formatUsd } from '@/lib/format';
import { useProduct } from '../api/get-product';
import { AddToCartCard } from '../components/add-to-cart-card';

export function ProductPage() {
  const { id = '' } = useParams();
  const { data: product, isPending, isError, error } = useProduct(id);

  return (
    // A screen tall while it loads: the footer never shifts when the package arrives.
    <section className="flex min-h-svh flex-col gap-6">
      <BackLink to="/" />
      {isPending ? (
        <PageSpinner label={t('products.loadingPackage')} />
      ) : isError ? (
        <ErrorAlert error={error} />
      ) : (
        <div className="grid gap-8 md:grid-cols-2 lg:grid-cols-[minmax(0,5fr)_minmax(0,4fr)_minmax(0,3fr)]">
          {/* The page's largest element: fetched first. */}
          <img
            src={product.image}
            alt={product.name}
            fetchPriority="high"
            width={400}
            height={300}
            className="aspect-[4/3] w-full rounded-xl border bg-muted object-cover"
          />
          <div className="flex flex-col gap-4">
            <h1 className="text-2xl font-bold tracking-tight">{product.name}</h1>
            <Rating value={product.rating} text={t('products.reviews', { count: product.numReviews })} />
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">{t('products.page.dailyCredit')}</dt>
              <dd className="font-medium">
                <Price usd={product.dailyCredit} />
              </dd>
              <dt className="text-muted-foreground">{t('products.page.term')}</dt>
              <dd className="font-medium">
                {t('products.page.termDays', { count: product.durationDays })}
                <span className="block font-normal text-muted-foreground">
                  {t('products.page.creditInAll', { amount: formatUsd(termCredit(product.dailyCredit, product.durationDays)) })}
                </span>

              </dd>
            </dl>
            <p className="whitespace-pre-line leading-relaxed text-muted-foreground">{product.description}</p>
          </div>
          <div className="md:col-span-2 lg:col-span-1">
            <AddToCartCard key={product._id} product={product} />
          </div>
        </div>
      )}
    </section>
  );
}
