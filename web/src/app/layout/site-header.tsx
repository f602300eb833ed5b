import { lazy, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Gem, LogIn, Menu, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useUserInfo } from '@/features/auth/auth-store';
import { cn } from '@/lib/utils';
import { CartLink } from './cart-link';
import { AdminMenuLabel, navButton, UserMenuLabel } from './nav-items';

// Loaded only for signed-in users (see nav-menus.tsx); until then a look-alike that
// cannot be opened holds the place, so the header does not move.
const UserMenu = lazy(async () => ({ default: (await import('./nav-menus')).UserMenu }));
const AdminMenu = lazy(async () => ({ default: (await import('./nav-menus')).AdminMenu }));

export const SITE_NAME = 'ETH Shop';

export function SiteHeader() {
  const user = useUserInfo();
  const { pathname } = useLocation();
  // The small-screen menu is open only for the page it was opened on, so any
  // navigation closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;

  return (
    <header className="border-b bg-background">
      <nav aria-label="Main" className="container flex flex-wrap items-center justify-between gap-x-4 py-3">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold tracking-tight">
          <Gem aria-hidden="true" className="size-6" />
          {SITE_NAME}
        </Link>
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-expanded={open}
          aria-controls="main-nav-items"
          aria-label={open ? 'Close menu' : 'Open menu'}
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
          <CartLink />
          {user ? (
            <Suspense
              fallback={
                <Button variant="ghost" className={navButton} disabled>
                  <UserMenuLabel name={user.name} />
                </Button>
              }
            >
              <UserMenu user={user} />
            </Suspense>
          ) : (
            <Button asChild variant="ghost" className={navButton}>
              <Link to="/login">
                <LogIn aria-hidden="true" />
                Enter
              </Link>
            </Button>
          )}
          {user?.isAdmin ? (
            <Suspense
              fallback={
                <Button variant="ghost" className={navButton} disabled>
                  <AdminMenuLabel />
                </Button>
              }
            >
              <AdminMenu />
            </Suspense>
          ) : null}
        </div>
      </nav>
    </header>
  );
}
