import { FlaskConical } from 'lucide-react';
import { useShopNetwork } from '@/api/get-shop-config';
import { t } from '@/i18n/i18n';

/**
 * On every page of a shop that does not take real money (a development chain, a test
 * network, a shop with SHOP_NETWORK_LABEL): one line above the header saying so. A landmark
 * of its own, so a screen reader finds it among the page's regions.
 */
export function TestNetworkBanner() {
  const network = useShopNetwork();
  // contract/network.ts's testNetworkNotice, in the visitor's language.
  const notice = network?.testNetwork ? t('layout.testNetwork.notice', { name: network.name }) : null;
  if (!notice) return null;
  return (
    <aside aria-label={t('layout.testNetwork.label')}
 data-testid="test-network-banner" className="border-b border-amber-300 bg-amber-100 text-amber-950 print:hidden">
      <p className="container flex items-center justify-center gap-2 py-1.5 text-center text-sm font-medium">
        <FlaskConical aria-hidden="true" className="size-4 shrink-0" />
        {notice}
      </p>
    </aside>
  );
}
