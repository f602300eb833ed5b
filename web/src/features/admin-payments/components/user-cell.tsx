import { TableCell } from '@/components/ui/table';

/** A table cell with a user's name and e-mail (a mailto link), or '—' when there is none. */
export function UserCell({ user }: { user: { name: string; email: string } | null }) {
  return (
    <TableCell>
      {user ? (
        <>
          <div className="font-medium">{user.name}</div>
          <a href={`mailto:${user.email}`} className="text-xs text-muted-foreground underline-offset-4 hover:underline">
            {user.email}
          </a>
        </>
      ) : (
        '—'
      )}
    </TableCell>
  );
}
