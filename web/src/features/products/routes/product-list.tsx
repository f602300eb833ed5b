import { useMemo, useState } from 'react';
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
import { t } from '@/i18n/i18n';
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
          if (after.pendingApproval) toast.info(t('products.admin.publishWaits', { name: product.name }));
          else toast.success(published ? t('products.admin.hidden', { name: product.name }) : t('products.admin.onSale', { name: product.name }));
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
        aria-label={published ? t('products.admin.unpublishNamed', { name: product.name }) : t('products.admin.publishNamed', { name: product.name })}
        onClick={() => (asks ? setAsking(true) : send())}
      >
        {published ? t('products.admin.unpublish') : t('products.admin.publish')}
      </Button>
      {asks ? <PublishDialog product={product} open={asking} onOpenChange={setAsking} pending={publish.isPending} onPublish={send} /> : null}
    </>
  );
}

function ProductActions({ product }: { product: Product }) {
  const remove = useDeleteProduct();
  const onDelete = () =>
    remove.mutate(product._id, {
      onSuccess: () => toast.success(t('products.admin.deleted')),
      onError: () => toast.error(t('products.admin.deleteFailed')),
    });
  return (
    <div className="flex justify-end gap-2">
      <PublishButton product={product} />
      <Button asChild variant="outline" size="icon" aria-label={t('products.admin.editNamed', { name: product.name })}>
        <Link to={`/admin/products/${product._id}/edit`}>
          <Pencil aria-hidden="true" />
        </Link>
      </Button>
      <ConfirmAction
        title={t('products.admin.deleteQuestion', { name: product.name })}
        description={t('products.admin.deleteText')}
        confirmLabel={t('products.admin.delete')}
        onConfirm={onDelete}
      >
        <Button variant="destructive" size="icon" aria-label={t('products.admin.deleteNamed', { name: product.name })} disabled={remove.isPending}>
          <Trash2 aria-hidden="true" />
        </Button>
      </ConfirmAction>
    </div>
  );
}

/**
 * SPEC.md section 6: ID, NAME, PRICE, Daily Credit, the description cut to 30 characters,
 * edit and delete. Made once per list (useMemo), so a cell's component keeps its state
 * across renders; its headers in the language drawn in.
 */
function productColumns(): ColumnDef<Product>[] {
  return [
    { accessorKey: '_id', header: t('products.admin.column.id'), meta: { className: 'font-mono text-xs' } },
    { accessorKey: 'name', header: t('products.admin.column.name'), meta: { className: 'font-medium' } },
    { id: 'price', header: t('products.admin.column.price'), accessorFn: (product) => formatUsd(product.price) },
    { id: 'dailyCredit', header: t('products.admin.column.dailyCredit'), accessorFn: (product) => formatUsd(product.dailyCredit) },
    {
      id: 'description',
      header: t('products.admin.column.description'),
      cell: ({ row }) => <span title={row.original.description}>{truncate(row.original.description ?? '')}</span>,
    },
    {
      id: 'published',
      header: t('products.admin.column.status'),
      cell: ({ row }) =>
        row.original.publishedAt ? (
          <Badge variant="success">{t('products.admin.published')}</Badge>
        ) : (
          <Badge variant="secondary">{t('products.admin.draft')}</Badge>
        ),
    },
    actionsColumn((product) => <ProductActions product={product} />),
  ];
}

export function ProductListPage() {
  const navigate = useNavigate();
  const list = useAdminProducts();
  const create = useCreateProduct();
  const columns = useMemo(() => productColumns(), []);

  const onCreate = () =>
    create.mutate(undefined, {
      onSuccess: (product) => {
        toast.success(t('products.admin.created'));
        navigate(`/admin/products/${product._id}/edit`);
      },
      onError: () => toast.error(t('products.admin.createFailed')),
    });

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title={t('products.admin.heading')}>
        <Button pending={create.isPending} icon={<Plus aria-hidden="true" />} onClick={onCreate} disabled={create.isPending}>
          {t('products.admin.create')}
        </Button>
      </PageHeader>
      <DataTable columns={columns} list={list} emptyText={t('products.admin.empty')} moreLabel={t('products.admin.more')} />

    </section>
  );
}
