import { Link, useNavigate } from 'react-router-dom';
import { ChevronDown, LogOut, ShoppingCart, User } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useLogout } from '@/features/auth/api/logout';
import type { UserInfo } from '@/features/auth/auth-store';
import { useCartCount } from '@/features/cart/cart-store';

const navButton = 'w-full justify-start md:w-auto md:justify-center';

export function CartLink() {
  const count = useCartCount();
  return (
    <Button asChild variant="ghost" className={navButton}>
      <Link to="/cart">
        <ShoppingCart aria-hidden="true" />
        Cart
        {count > 0 ? (
          <Badge variant="success" className="rounded-full px-1.5">
            {count}
          </Badge>
        ) : null}
      </Link>
    </Button>
  );
}

export function UserMenu({ user }: { user: UserInfo }) {
  const navigate = useNavigate();
  const logout = useLogout({ onDone: () => navigate('/login') });
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className={navButton}>
          <User aria-hidden="true" />
          <span className="max-w-48 truncate">{user.name}</span>
          <ChevronDown aria-hidden="true" />
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
] as const;

export function AdminMenu() {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className={navButton}>
          Admin
          <ChevronDown aria-hidden="true" />
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
