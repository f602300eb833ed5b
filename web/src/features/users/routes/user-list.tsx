import { Link } from '@/components/link';
import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { Pencil, Trash2 } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { AdminUserListItem } from '@shop/core/contract';
import { ConfirmAction } from '@/components/confirm-action';
import { DataTable } from '@/components/data-table';
import { actionsColumn } from '@/components/data-table-columns';
import { PageHeader } from '@/components/page-header';
import { SearchBox, useListParam } from '@/components/list-filters';
import { Button } from '@/components/ui/button';
import { YesNoIcon } from '@/components/yes-no-icon';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/get-users';

function UserActions({ user }: { user: AdminUserListItem }) {
  const remove = useDeleteUser();

  const onDelete = () =>
    remove.mutate(user._id, {
      onSuccess: () => toast.success(t('users.list.deleted')),
      onError: (err) => toast.error(getErrorMessage(err)),
    });

  // Admins cannot be edited or deleted from the list (SPEC.md section 6).
  if (user.isAdmin) return null;
  return (
    <div className="flex justify-end gap-2">
      <Button asChild variant="outline" size="icon" aria-label={t('users.list.edit', { name: user.name })}>
        <Link to={`/admin/user/${user._id}/edit`}>
          <Pencil aria-hidden="true" />
        </Link>
      </Button>
      {/* SPEC.md section 6: delete asks 'Are you sure'; the question names the user. */}
      <ConfirmAction
        title={t('users.list.confirmTitle')}
        description={t('users.list.confirmDescription', { name: user.name, email: user.email })}
        confirmLabel={t('users.list.confirmDelete')}
        onConfirm={onDelete}
      >
        <Button variant="destructive" size="icon" aria-label={t('users.list.delete', { name: user.name })} disabled={remove.isPending}>
          <Trash2 aria-hidden="true" />
        </Button>
      </ConfirmAction>
    </div>
  );
}

/** SPEC.md section 6: ID, NAME, EMAIL (a mailto link), ADMIN. */
const userColumns = (): ColumnDef<AdminUserListItem>[] => [
  { accessorKey: '_id', header: t('users.list.id'), meta: { className: 'font-mono text-xs' } },
  { accessorKey: 'name', header: t('users.list.name'), meta: { className: 'font-medium' } },
  {
    accessorKey: 'email',
    header: t('users.list.email'),
    cell: ({ row }) => (
      <a href={`mailto:${row.original.email}`} className="underline-offset-4 hover:underline">
        {row.original.email}
      </a>
    ),
  },
  { id: 'admin', header: t('users.list.admin'), cell: ({ row }) => <YesNoIcon value={row.original.isAdmin} yes={t('users.list.isAdmin')} no={t('users.list.notAdmin')} /> },
  actionsColumn((user) => <UserActions user={user} />),
];

export function UserListPage() {
  const [q] = useListParam('q');
  const list = useUsers(q);
  const columns = useMemo(() => userColumns(), []);

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title={t('users.list.title')} />
      <DataTable
        columns={columns}
        list={list}
        emptyText={q ? t('users.list.noMatch') : t('users.list.empty')}
        moreLabel={t('users.list.more')}
        toolbar={<SearchBox label={t('users.list.search')} placeholder={t('users.list.searchPlaceholder')} />}
      />
    </section>
  );
}
