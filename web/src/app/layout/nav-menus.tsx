import { useRef, type FocusEvent } from 'react';
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
import type { UserInfo } from '@/stores/auth-store';
import { ADMIN_MENU_NAME, AdminMenuLabel, navButton, QUEUE_DASHBOARD_HREF, UserMenuLabel } from './nav-items';

// The signed-in menus. Radix's dropdown is a large part of the first load and a guest
// never sees it, so the header loads this module when a signed-in user reaches for a
// menu, and draws the menu open in place of the button that was clicked.

type OnDemand = {
  /** Opened by Enter or Space on the button that loaded it (site-header.tsx). */
  openedByKeyboard: boolean;
};

/**
 * Radix moves focus to a menu's first item when it is opened from the keyboard, which it
 * learns from the key press; these menus mount after that press, so they are told. The
 * first time Radix focuses the menu itself, the first item takes the focus.
 */
function useFirstItemFocus(openedByKeyboard: boolean) {
  const pending = useRef(openedByKeyboard);
  return (event: FocusEvent<HTMLDivElement>) => {
    if (!pending.current || event.target !== event.currentTarget) return;
    pending.current = false;
    event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  };
}

export function UserMenu({ user, openedByKeyboard }: { user: UserInfo } & OnDemand) {
  const onFocus = useFirstItemFocus(openedByKeyboard);
  const navigate = useNavigate();
  const logout = useLogout({ onDone: () => navigate('/login') });
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className={navButton}>
          <UserMenuLabel name={user.name} />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" onFocus={onFocus}>
        <DropdownMenuItem asChild>
          <Link to="/profile">Profile</Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/profile/security">Security</Link>
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
  { to: '/admin', label: 'Overview' },
  { to: '/admin/orderlist', label: 'Order List' },
  { to: '/admin/userlist', label: 'User List' },
  { to: '/admin/productlist', label: 'Product List' },
  { to: '/admin/cashouts', label: 'Cashouts' },
  { to: '/admin/payments', label: 'Payments' },
  { to: '/admin/approvals', label: 'Approvals' },
  { to: '/admin/reconciliation', label: 'Reconciliation' },
  { to: '/admin/webhooks', label: 'Webhooks' },
  { to: '/admin/audit', label: 'Audit log' },
] as const;

export function AdminMenu({ openedByKeyboard }: OnDemand) {
  const onFocus = useFirstItemFocus(openedByKeyboard);
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className={navButton} aria-label={ADMIN_MENU_NAME}>
          <AdminMenuLabel />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" onFocus={onFocus}>
        {adminLinks.map((link) => (
          <DropdownMenuItem key={link.to} asChild>
            <Link to={link.to}>{link.label}</Link>
          </DropdownMenuItem>
        ))}
        {/* The api's page, not a screen of this app: a full page load. */}
        <DropdownMenuItem asChild>
          <a href={QUEUE_DASHBOARD_HREF}>Queues</a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
