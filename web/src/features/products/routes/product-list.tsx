import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Link } from '@/components/link';
import type { ColumnDef } from '@tanstack/react-table';
import { Eye, EyeOff, Pencil, Plus, Trash2 } from 'lucide-react';
import { toast } from '@/lib/toast';
import { ConfirmAction } from '@/components/confirm-action';
import { DataTable } from '@/components/data-table';
import { actionsColumn } from '@/components/data-table-columns';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { formatUsd, truncate } from '@/lib/format';
import { useCreateProduct } from '../api/create-product';
import { useDeleteProduct } from '../api/delete-product';
import { useAdminProducts } from '../api/get-admin-products';
import { usePublishProduct } from '../api/publish-product';
import { PublishDialog } from '../components/publish-dialog';
import type { Product } from '../types';

/**
 * A draft is hidden from the storefront until it is published; Unpublish makes it a draft
 * again. A draft the server says will wait for a second admin asks for a reason first.
 */
function PublishButton({ product }: { product: Product }) {
  const publish = usePublishProduct();
  const [asking, setAsking] = useState(false);
  const published = product.publishedAt !== null;
  const asks = !published && product.publishWaits === true;
  const send = (approvalReason?: string) =>
    publish.mutate(
      { id: product._id, published: !published, ...(approvalReason ? { approvalReason } : {}) },
      {
        onSuccess: (after) => {
          setAsking(false);
          if (after.pendingApproval) toast.info(`${product.name} pays more than it costs. It goes on sale once a second admin approves.`);
          else toast.success(published ? `${product.name} is hidden from the shop.` : `${product.name} is on sale.`);
        },
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        pending={publish.isPending}
        disabled={publish.isPending}
        icon={published ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
        aria-label={`${published ? 'Unpublish' : 'Publish'} ${product.name}`}
        onClick={() => (asks ? setAsking(true) : send())}
      >
        {published ? 'Unpublish' : 'Publish'}
      </Button>
      {asks ? <PublishDialog product={product} open={asking} onOpenChange={setAsking} pending={publish.isPending} onPublish={send} /> : null}
    </>
  );
}

function ProductActions({ product }: { product: Product }) {
  const remove = useDeleteProduct();
  const onDelete = () =>
    remove.mutate(product._id, {
      onSuccess: () => toast.success('Product deleted!'),
      onError: () => toast.error('Failed to delete Product.'),
    });
  return (
    <div className="flex justify-end gap-2">
      <PublishButton product={product} />
      <Button asChild variant="outline" size="icon" aria-label={`Edit ${product.name}`}>
        <Link to={`/admin/products/${product._id}/edit`}>
          <Pencil aria-hidden="true" />
        </Link>
      </Button>
      <ConfirmAction
        title={`Delete the package ${product.name}?`}
        description="It leaves the shop at once. Orders that bought it keep it; a package no order refers to is removed for good."
        confirmLabel="Delete"
        onConfirm={onDelete}
      >
        <Button variant="destructive" size="icon" aria-label={`Delete ${product.name}`} disabled={remove.isPending}>
          <Trash2 aria-hidden="true" />
        </Button>
      </ConfirmAction>
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
  {
    id: 'published',
    header: 'STATUS',
    cell: ({ row }) =>
      row.original.publishedAt ? <Badge variant="success">Published</Badge> : <Badge variant="secondary">Draft</Badge>,
  },
  actionsColumn((product) => <ProductActions product={product} />),
];

export function ProductListPage() {
  const navigate = useNavigate();
  const list = useAdminProducts();
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
