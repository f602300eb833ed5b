import { Link, useNavigate } from 'react-router-dom';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { AdminTableState } from '@/components/admin-table-state';
import { LoadMore } from '@/components/load-more';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd, truncate } from '@/lib/format';
import { useCreateProduct } from '../api/create-product';
import { useDeleteProduct } from '../api/delete-product';
import { useProducts } from '../api/get-products';

export function ProductListPage() {
  const navigate = useNavigate();
  const list = useProducts();
  const { data: products, isPending, error } = list;
  const create = useCreateProduct();
  const remove = useDeleteProduct();

  const onCreate = () =>
    create.mutate(undefined, {
      onSuccess: (product) => {
        toast.success('Product created!');
        navigate(`/admin/products/${product._id}/edit`);
      },
      onError: () => toast.error('Failed to create Product.'),
    });

  const onDelete = (id: string) =>
    remove.mutate(id, {
      onSuccess: () => toast.success('Product deleted!'),
      onError: () => toast.error('Failed to delete Product.'),
    });

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Product List">
        <Button pending={create.isPending} icon={<Plus aria-hidden="true" />} onClick={onCreate} disabled={create.isPending}>
          Create Package
        </Button>
      </PageHeader>
      <AdminTableState isPending={isPending} error={error} isEmpty={products?.length === 0} emptyText="There are no packages yet.">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>ID</TableHead>
              <TableHead>NAME</TableHead>
              <TableHead>PRICE</TableHead>
              <TableHead>Daily Credit</TableHead>
              <TableHead>Description</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {products?.map((product) => (
              <TableRow key={product._id}>
                <TableCell className="font-mono text-xs">{product._id}</TableCell>
                <TableCell className="font-medium">{product.name}</TableCell>
                <TableCell>{formatUsd(product.price)}</TableCell>
                <TableCell>{formatUsd(product.dailyCredit)}</TableCell>
                <TableCell title={product.description}>{truncate(product.description ?? '')}</TableCell>
                <TableCell>
                  <div className="flex justify-end gap-2">
                    <Button asChild variant="outline" size="icon" aria-label={`Edit ${product.name}`}>
                      <Link to={`/admin/products/${product._id}/edit`}>
                        <Pencil aria-hidden="true" />
                      </Link>
                    </Button>
                    <Button
                      variant="destructive"
                      size="icon"
                      aria-label={`Delete ${product.name}`}
                      disabled={remove.isPending && remove.variables === product._id}
                      onClick={() => onDelete(product._id)}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
      <LoadMore list={list} label="More packages" />
    </section>
  );
}
