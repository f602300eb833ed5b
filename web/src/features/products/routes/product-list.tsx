import { Link, useNavigate } from 'react-router-dom';
import type { ColumnDef } from '@tanstack/react-table';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { DataTable } from '@/components/data-table';
import { actionsColumn } from '@/components/data-table-columns';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { formatUsd, truncate } from '@/lib/format';
import { useCreateProduct } from '../api/create-product';
import { useDeleteProduct } from '../api/delete-product';
import { useProducts } from '../api/get-products';
import type { Product } from '../types';

function ProductActions({ product }: { product: Product }) {
  const remove = useDeleteProduct();
  const onDelete = () =>
    remove.mutate(product._id, {
      onSuccess: () => toast.success('Product deleted!'),
      onError: () => toast.error('Failed to delete Product.'),
    });
  return (
    <div className="flex justify-end gap-2">
      <Button asChild variant="outline" size="icon" aria-label={`Edit ${product.name}`}>
        <Link to={`/admin/products/${product._id}/edit`}>
          <Pencil aria-hidden="true" />
        </Link>
      </Button>
      <Button variant="destructive" size="icon" aria-label={`Delete ${product.name}`} disabled={remove.isPending} onClick={onDelete}>
        <Trash2 aria-hidden="true" />
      </Button>
    </div>
  );
}

/** SPEC.md section 6: ID, NAME, PRICE, Daily Credit, the description cut to 30 characters, edit and delete. */
const PRODUCT_COLUMNS: ColumnDef<Product>[] = [
  { accessorKey: '_id', header: 'ID', meta: { className: 'font-mono text-xs' } },
  { accessorKey: 'name', header: 'NAME', meta: { className: 'font-medium' } },
  { id: 'price', header: 'PRICE', accessorFn: (product) => formatUsd(product.price) },
  { id: 'dailyCredit', header: 'Daily Credit', accessorFn: (product) => formatUsd(product.dailyCredit) },
  {
    id: 'description',
    header: 'Description',
    cell: ({ row }) => <span title={row.original.description}>{truncate(row.original.description ?? '')}</span>,
  },
  actionsColumn((product) => <ProductActions product={product} />),
];

export function ProductListPage() {
  const navigate = useNavigate();
  const list = useProducts();
  const create = useCreateProduct();

  const onCreate = () =>
    create.mutate(undefined, {
      onSuccess: (product) => {
        toast.success('Product created!');
        navigate(`/admin/products/${product._id}/edit`);
      },
      onError: () => toast.error('Failed to create Product.'),
    });

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Product List">
        <Button pending={create.isPending} icon={<Plus aria-hidden="true" />} onClick={onCreate} disabled={create.isPending}>
          Create Package
        </Button>
      </PageHeader>
      <DataTable columns={PRODUCT_COLUMNS} list={list} emptyText="There are no packages yet." moreLabel="More packages" />
    </section>
  );
}
