import { Alert, AlertDescription } from '@/components/ui/alert';
import { PageSpinner } from '@/components/ui/spinner';
import { getErrorMessage } from '@/lib/api-client';
import { useProducts } from '../api/get-products';
import { ProductCard } from '../components/product-card';

export function HomePage() {
  const { data: products, isPending, isError, error } = useProducts();

  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight">Available Packages :</h1>
      {isPending ? (
        <PageSpinner label="Loading packages" />
      ) : isError ? (
        <Alert variant="destructive">
          <AlertDescription>Error: {getErrorMessage(error)}</AlertDescription>
        </Alert>
      ) : products.length === 0 ? (
        <p className="text-muted-foreground">No packages are on sale yet.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {products.map((product) => (
            <li key={product._id}>
              <ProductCard product={product} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
