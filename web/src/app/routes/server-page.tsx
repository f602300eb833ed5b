import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { t } from '@/i18n/i18n';

/** How the app leaves for a page the server owns; an object so tests can replace it. */
export const serverNavigation = {
  replace: (href: string) => window.location.replace(href),
};

/**
 * A path the server serves itself (the queue dashboard at /admin/queues), reached by a
 * client-side navigation, for instance the redirect after signing in. The single-page
 * app has no screen for it, so it loads the address from the server instead of showing
 * its 404 page. The server never answers these paths with the app, so this cannot loop.
 */
export function ServerPage() {
  const { pathname, search, hash } = useLocation();
  useEffect(() => {
    serverNavigation.replace(pathname + search + hash);
  }, [pathname, search, hash]);
  return <PageSpinner label={t('serverPage.opening')}
 />;
}
