import { useRef, type FocusEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Link } from '@/components/link';
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
import type { AdminWaitingJson } from '@shop/core/contract';
import { waitingText } from '@/api/get-admin-waiting';
import { Badge } from '@/components/ui/badge';
import { t, type MessageKey } from '@/i18n/i18n';
import { AdminMenuLabel, navButton, QUEUE_DASHBOARD_HREF, UserMenuLabel } from './nav-items';

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
          <Link to="/profile">{t('header.userMenu.profile')}</Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/profile/security">{t('header.userMenu.security')}</Link>
        </DropdownMenuItem>
        <DropdownMenuItem disabled={logout.isPending} onSelect={() => logout.mutate()}>
          <LogOut aria-hidden="true" />
          {t('header.userMenu.logOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Each admin page, and what of it waits for the admin (counted by GET /api/admin/overview/waiting). */
const adminLinks: readonly { to: string; label: MessageKey; waits?: { count: keyof AdminWaitingJson; what: MessageKey; to: string } }[] = [
  { to: '/admin', label: 'header.adminMenu.overview' },
  { to: '/admin/orderlist', label: 'header.adminMenu.orderList' },
  { to: '/admin/userlist', label: 'header.adminMenu.userList' },
  { to: '/admin/productlist', label: 'header.adminMenu.productList' },
  // What waits leads to the list of it: the cashouts waiting to be paid.
  {
    to: '/admin/cashouts',
    label: 'header.adminMenu.cashouts',
    waits: { count: 'cashouts', what: 'header.adminMenu.toPay', to: `/admin/cashouts?${new URLSearchParams({ status: 'REQUESTED,NOTIFIED' })}` },
  },
  { to: '/admin/payments', label: 'header.adminMenu.payments' },
  { to: '/admin/approvals', label: 'header.adminMenu.approvals', waits: { count: 'approvals', what: 'header.adminMenu.toDecide', to: '/admin/approvals' } },
  { to: '/admin/reconciliation', label: 'header.adminMenu.reconciliation' },
  { to: '/admin/webhooks', label: 'header.adminMenu.webhooks' },
  { to: '/admin/audit', label: 'header.adminMenu.auditLog' },
];

export function AdminMenu({ openedByKeyboard, waiting }: OnDemand & { waiting?: AdminWaitingJson | undefined }) {
  const onFocus = useFirstItemFocus(openedByKeyboard);
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className={navButton}>
          <AdminMenuLabel waiting={waiting} />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" onFocus={onFocus}>
        {adminLinks.map((link) => {
          const count = link.waits && waiting ? waiting[link.waits.count] : 0;
          return (
            <DropdownMenuItem key={link.to} asChild>
              {count > 0 && link.waits ? (
                <Link to={link.waits.to} className="justify-between gap-4">
                  {t(link.label)}
                  <span className="sr-only"> </span>
                  <Badge variant="destructive" className="rounded-full px-1.5">
                    {waitingText(count)}
                  </Badge>
                  <span className="sr-only">{` ${t(link.waits.what)}`}</span>
                </Link>
              ) : (
                <Link to={link.to}>{t(link.label)}</Link>
              )}
            </DropdownMenuItem>
          );
        })}
        {/* The api's page, not a screen of this app: a full page load. */}
        <DropdownMenuItem asChild>
          <a href={QUEUE_DASHBOARD_HREF}>{t('header.adminMenu.queues')}</a>

        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
