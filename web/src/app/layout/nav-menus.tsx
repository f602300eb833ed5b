import { Link, useNavigate } from 'react-router-dom';
import { LogOut } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useLogout } from '@/features/auth/api/logout';
import type { UserInfo } from '@/features/auth/auth-store';
import { AdminMenuLabel, navButton, UserMenuLabel } from './nav-items';

// The signed-in menus. Radix's dropdown is a large part of the first load and a guest
// never sees it, so the header loads this module only for a signed-in user.

export function UserMenu({ user }: { user: UserInfo }) {
  const navigate = useNavigate();
  const logout = useLogout({ onDone: () => navigate('/login') });
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className={navButton}>
          <UserMenuLabel name={user.name} />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem asChild>
          <Link to="/profile">Profile</Link>
        </DropdownMenuItem>
        <DropdownMenuItem disabled={logout.isPending} onSelect={() => logout.mutate()}>
          <LogOut aria-hidden="true" />
          Log Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

const adminLinks = [
  { to: '/admin/orderlist', label: 'Order List' },
  { to: '/admin/userlist', label: 'User List' },
  { to: '/admin/productlist', label: 'Product List' },
  { to: '/admin/cashouts', label: 'Cashouts' },
  { to: '/admin/payments', label: 'Payments' },
  { to: '/admin/reconciliation', label: 'Reconciliation' },
  { to: '/admin/webhooks', label: 'Webhooks' },
] as const;

export function AdminMenu() {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className={navButton}>
          <AdminMenuLabel />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {adminLinks.map((link) => (
          <DropdownMenuItem key={link.to} asChild>
            <Link to={link.to}>{link.label}</Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
