import { Link } from '@/components/link';
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
import { getErrorMessage } from '@/lib/api-client';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/get-users';

function UserActions({ user }: { user: AdminUserListItem }) {
  const remove = useDeleteUser();

  const onDelete = () =>
    remove.mutate(user._id, {
      onSuccess: (result) => toast.success(result?.message || 'User deleted'),
      onError: (err) => toast.error(getErrorMessage(err)),
    });

  // Admins cannot be edited or deleted from the list (SPEC.md section 6).
  if (user.isAdmin) return null;
  return (
    <div className="flex justify-end gap-2">
      <Button asChild variant="outline" size="icon" aria-label={`Edit ${user.name}`}>
        <Link to={`/admin/user/${user._id}/edit`}>
          <Pencil aria-hidden="true" />
        </Link>
      </Button>
      {/* SPEC.md section 6: delete asks 'Are you sure'; the question names the user. */}
      <ConfirmAction
        title="Are you sure"
        description={`Delete the user ${user.name} (${user.email})? They can no longer sign in; their orders and ledger are kept.`}
        confirmLabel="Delete"
        onConfirm={onDelete}
      >
        <Button variant="destructive" size="icon" aria-label={`Delete ${user.name}`} disabled={remove.isPending}>
          <Trash2 aria-hidden="true" />
        </Button>
      </ConfirmAction>
    </div>
  );
}

/** SPEC.md section 6: ID, NAME, EMAIL (a mailto link), ADMIN. */
const USER_COLUMNS: ColumnDef<AdminUserListItem>[] = [
  { accessorKey: '_id', header: 'ID', meta: { className: 'font-mono text-xs' } },
  { accessorKey: 'name', header: 'NAME', meta: { className: 'font-medium' } },
  {
    accessorKey: 'email',
    header: 'EMAIL',
    cell: ({ row }) => (
      <a href={`mailto:${row.original.email}`} className="underline-offset-4 hover:underline">
        {row.original.email}
      </a>
    ),
  },
  { id: 'admin', header: 'ADMIN', cell: ({ row }) => <YesNoIcon value={row.original.isAdmin} yes="Admin" no="Not admin" /> },
  actionsColumn((user) => <UserActions user={user} />),
];

export function UserListPage() {
  const [q] = useListParam('q');
  const list = useUsers(q);

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="User List" />
      <DataTable
        columns={USER_COLUMNS}
        list={list}
        emptyText={q ? 'No user matches.' : 'There are no users yet.'}
        moreLabel="More users"
        toolbar={<SearchBox label="Search users" placeholder="Name or e-mail" />}
      />
    </section>
  );
}
