import { Link } from 'react-router-dom';
import { Pencil, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { AdminTableState } from '@/components/admin-table-state';
import { PageHeader } from '@/components/page-header';
import { SearchBox, useListParam } from '@/components/list-filters';
import { LoadMore } from '@/components/load-more';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { YesNoIcon } from '@/components/yes-no-icon';
import { getErrorMessage } from '@/lib/api-client';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/get-users';

export function UserListPage() {
  const [q] = useListParam('q');
  const list = useUsers(q);
  const { data: users, isPending, error } = list;
  const remove = useDeleteUser();

  const onDelete = (id: string) => {
    if (!window.confirm('Are you sure')) return;
    remove.mutate(id, {
      onSuccess: (result) => toast.success(result?.message || 'User deleted'),
      onError: (err) => toast.error(getErrorMessage(err)),
    });
  };

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="User List" />
      <SearchBox label="Search users" placeholder="Name or e-mail" />
      <AdminTableState isPending={isPending} error={error} isEmpty={users?.length === 0} emptyText={q ? 'No user matches.' : 'There are no users yet.'}>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>ID</TableHead>
              <TableHead>NAME</TableHead>
              <TableHead>EMAIL</TableHead>
              <TableHead>ADMIN</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {users?.map((user) => (
              <TableRow key={user._id}>
                <TableCell className="font-mono text-xs">{user._id}</TableCell>
                <TableCell className="font-medium">{user.name}</TableCell>
                <TableCell>
                  <a href={`mailto:${user.email}`} className="underline-offset-4 hover:underline">
                    {user.email}
                  </a>
                </TableCell>
                <TableCell>
                  <YesNoIcon value={user.isAdmin} yes="Admin" no="Not admin" />
                </TableCell>
                <TableCell>
                  {/* Admins cannot be edited or deleted from the list (SPEC.md section 6). */}
                  {user.isAdmin ? null : (
                    <div className="flex justify-end gap-2">
                      <Button asChild variant="outline" size="icon" aria-label={`Edit ${user.name}`}>
                        <Link to={`/admin/user/${user._id}/edit`}>
                          <Pencil aria-hidden="true" />
                        </Link>
                      </Button>
                      <Button
                        variant="destructive"
                        size="icon"
                        aria-label={`Delete ${user.name}`}
                        disabled={remove.isPending && remove.variables === user._id}
                        onClick={() => onDelete(user._id)}
                      >
                        <Trash2 aria-hidden="true" />
                      </Button>
                    </div>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
      <LoadMore list={list} label="More users" />
    </section>
  );
}
