import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { loadCatalog, t, type CatalogArea, type MessageKey } from '@/i18n/i18n';
import { keepReferralCode } from '@/stores/referral-store';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { TestNetworkBanner } from './test-network-banner';

/**
 * A route's title and meta description (its `handle`), as message keys (pages.ts); the
 * home page's title ('') is the shop's name.
 */
export type PageMeta = { title: MessageKey | ''; description: MessageKey; areas: readonly CatalogArea[] };
const SHOP = 'ETH Shop';

/** The page's meta: the deepest matched route's that has one (its `handle`). */
export function pageMetaOf(matches: readonly { handle?: unknown }[]): PageMeta | undefined {
  return [...matches].reverse().find((m) => (m.handle as PageMeta | undefined)?.description)?.handle as PageMeta | undefined;
}

/** The document's title for a page's meta, in the active language. */
export function pageTitle(meta: PageMeta | undefined): string {
  return meta?.title ? `${t(meta.title)} | ${SHOP}` : SHOP;
}

/** The page's meta description, in the active language ('' for a page without meta). */
export function pageDescription(meta: PageMeta | undefined): string {
  return meta ? t(meta.description) : '';
}

function usePageMeta(meta: PageMeta | undefined): void {
  useEffect(() => {
    if (!meta) return;
    // The title's words are in the screen's catalogues, which load with its code.
    let current = true;
    void Promise.all(meta.areas.map((area) => loadCatalog(area))).then(() => {
      if (!current) return;
      document.title = pageTitle(meta);
      document.querySelector('meta[name="description"]')?.setAttribute('content', pageDescription(meta));
    });
    return () => {
      current = false;
    };
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

/**
 * Marks <html> once the app runs the page (`data-app="running"`): after hydration for a
 * page drawn on the server, whose buttons do nothing until then. Journeys wait for it.
 * Drawn inside the page's Suspense boundary (router.tsx), not by the layout: React may
 * hydrate a boundary's content in a later pass than the layout around it (selective
 * hydration), and then the layout's effects run while the page is still only markup.
 */
export function PageRunning(): null {
  useEffect(() => {
    document.documentElement.dataset.app = 'running';
  }, []);
  return null;
}

/** The header and footer around the page (`children`); `meta` is the page's title and description. */
export function AppLayout({ meta, children }: { meta: PageMeta | undefined; children: ReactNode }) {
  usePageMeta(meta);
  useKeepReferralLink();
  return (
    <div className="flex min-h-svh flex-col">
      <TestNetworkBanner />
      <SiteHeader />
      <main className="container flex-1 py-6">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
