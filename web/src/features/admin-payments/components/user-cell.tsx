import type { ColumnDef } from '@tanstack/react-table';

type CellUser = { name: string; email: string } | null;

/** A user's name and e-mail (a mailto link), or '—' when there is none. */
function UserCell({ user }: { user: CellUser }) {
  if (!user) return <>—</>;
  return (
    <>
      <div className="font-medium">{user.name}</div>
      <a href={`mailto:${user.email}`} className="text-xs text-muted-foreground underline-offset-4 hover:underline">
        {user.email}
      </a>
    </>
  );
}

/** The column of a row's user (USER on cashouts, BUYER on refunds and overpaid orders). */
export function userColumn<TData extends { user: CellUser }>(header: string): ColumnDef<TData> {
  return { id: 'user', header, cell: ({ row }) => <UserCell user={row.original.user} /> };
}
