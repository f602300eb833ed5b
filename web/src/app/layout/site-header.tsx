import { lazy, Suspense, useState, useTransition, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { Link } from '@/components/link';
import { Gem, LogIn, Menu, X } from 'lucide-react';
import { useAdminWaiting } from '@/api/get-admin-waiting';
import { LoadBoundary } from '@/components/load-boundary';
import { Button } from '@/components/ui/button';
import { t } from '@/i18n/i18n';
import { cn } from '@/lib/utils';
import { useUserInfo } from '@/stores/auth-store';
import { CartLink } from './cart-link';
import { AdminMenuLabel, navButton, UserMenuLabel } from './nav-items';

// The signed-in menus (Radix's dropdown, about 28 kB compressed) load when the user
// reaches for one, not with the page: loaded with it, they stood in front of every
// signed-in page's content on a phone (Lighthouse counted them in the pay page's LCP).
const loadMenus = () => import('./nav-menus');
const UserMenu = lazy(async () => ({ default: (await loadMenus()).UserMenu }));
const AdminMenu = lazy(async () => ({ default: (await loadMenus()).AdminMenu }));

/**
 * A menu trigger that loads its menu on demand. Pointing at it, focusing or touching it
 * starts the load; a click (or Enter or Space) opens the menu as soon as it is in. The
 * button stays on screen, focused, while it loads (a transition inside a boundary already
 * shown keeps it), and the menu then takes its place, open. If the menu's code cannot be
 * loaded, the button reloads the page instead.
 */
function MenuOnDemand({ label, menu }: { label: ReactNode; menu: (openedByKeyboard: boolean) => ReactNode }) {
  const [wanted, setWanted] = useState<{ byKeyboard: boolean } | null>(null);
  const [loading, startLoading] = useTransition();
  const preload = () => void loadMenus().catch(() => {});
  const button = (
    <Button
      variant="ghost"
      className={navButton}
      aria-haspopup="menu"
      aria-expanded={false}
      aria-busy={loading}
      onPointerEnter={preload}
      onFocus={preload}
      onTouchStart={preload}
      // A click from Enter or Space has no pointer behind it (detail 0).
      onClick={(event) => startLoading(() => setWanted({ byKeyboard: event.detail === 0 }))}
    >
      {label}
    </Button>
  );
  const failed = (
    <Button variant="ghost" className={navButton} title={t('header.menuFailed')} onClick={() => window.location.reload()}>
      {label}
    </Button>
  );
  return (
    <LoadBoundary failed={failed}>
      <Suspense fallback={button}>{wanted ? menu(wanted.byKeyboard) : button}</Suspense>
    </LoadBoundary>
  );
}

export const SITE_NAME = 'ETH Shop';

export function SiteHeader() {
  const user = useUserInfo();
  const { data: waiting } = useAdminWaiting(user?.isAdmin === true);
  const { pathname } = useLocation();
  // The small-screen menu is open only for the page it was opened on, so any
  // navigation closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;

  return (
    <header className="border-b bg-background">
      <nav aria-label={t('header.nav')} className="container flex flex-wrap items-center gap-x-2 py-3 md:gap-x-4">
        <Link to="/" className="mr-auto flex items-center gap-2 text-lg font-bold tracking-tight">
          <Gem aria-hidden="true" className="size-6" />
          {SITE_NAME}
        </Link>
        {/* The cart and its count stay in the top row on a phone; the menu holds the rest. */}
        <CartLink />
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-expanded={open}
          aria-controls="main-nav-items"
          aria-label={open ? t('header.closeMenu') : t('header.openMenu')}
          onClick={() => setOpenOn(open ? null : pathname)}
        >
          {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
        </Button>
        <div
          id="main-nav-items"
          className={cn(
            'w-full flex-col gap-1 pt-3 md:flex md:w-auto md:flex-row md:items-center md:pt-0',
            open ? 'flex' : 'hidden',
          )}
        >
          {user ? (
            <MenuOnDemand label={<UserMenuLabel name={user.name} />} menu={(byKeyboard) => <UserMenu user={user} openedByKeyboard={byKeyboard} />} />
          ) : (
            <Button asChild variant="ghost" className={navButton}>
              <Link to="/login">
                <LogIn aria-hidden="true" />
                {t('header.enter')}

              </Link>
            </Button>
          )}
          {user?.isAdmin ? (
            <MenuOnDemand
              label={<AdminMenuLabel waiting={waiting} />}
              menu={(byKeyboard) => <AdminMenu openedByKeyboard={byKeyboard} waiting={waiting} />}
            />
          ) : null}
        </div>
      </nav>
    </header>
  );
}
