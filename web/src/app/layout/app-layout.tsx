import { Outlet } from 'react-router-dom';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

export function AppLayout() {
  return (
    <div className="flex min-h-svh flex-col">
      <SiteHeader />
      <main className="container flex-1 py-6">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
