import { useParams } from 'react-router-dom';
import { BackLink } from '@/components/back-link';
import { ErrorAlert } from '@/components/error-alert';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { t } from '@/i18n/i18n';
import { useAdminProduct } from '../api/get-admin-products';
import { ProductForm } from '../components/product-form';

export function ProductEditPage() {
  const { id = '' } = useParams();
  const { data: product, isPending, isError, error } = useAdminProduct(id);

  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <BackLink to="/admin/productlist" />
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold tracking-tight">{t('products.edit.heading')}</h1>
        </CardHeader>
        <CardContent>
          {isPending ? (
            <PageSpinner label={t('products.loadingPackage')} />

          ) : isError ? (
            <ErrorAlert error={error} />
          ) : (
            <ProductForm key={product._id} product={product} />
          )}
        </CardContent>
      </Card>
    </section>
  );
}
