import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router-dom';
import { keepReferralCode } from '@/stores/referral-store';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { TestNetworkBanner } from './test-network-banner';

/** A route's title and meta description (its `handle`); the home page's title is the shop's name. */
export type PageMeta = { title: string; description: string };
const SHOP = 'ETH Shop';

function usePageMeta(): void {
  const matches = useMatches();
  const meta = [...matches].reverse().find((m) => (m.handle as PageMeta | undefined)?.description)?.handle as PageMeta | undefined;
  useEffect(() => {
    if (!meta) return;
    document.title = meta.title ? `${meta.title} | ${SHOP}` : SHOP;
    document.querySelector('meta[name="description"]')?.setAttribute('content', meta.description);
  }, [meta]);
}

/**
 * A referral link's code (`?ref=` on any page, not only /register) is kept, so a visitor
 * who looks around first still registers with it: the register page fills it in.
 */
function useKeepReferralLink(): void {
  const { search } = useLocation();
  useEffect(() => {
    const code = new URLSearchParams(search).get('ref');
    if (code) keepReferralCode(code);
  }, [search]);
}

export function AppLayout() {
  usePageMeta();
  useKeepReferralLink();
  return (
    <div className="flex min-h-svh flex-col">
      <TestNetworkBanner />
      <SiteHeader />
      <main className="container flex-1 py-6">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
