import { FlaskConical } from 'lucide-react';
import { testNetworkNotice } from '@shop/core/contract';
import { useShopNetwork } from '@/api/get-shop-config';

/**
 * On every page of a shop that does not take real money (a development chain, a test
 * network, a shop with SHOP_NETWORK_LABEL): one line above the header saying so. A landmark
 * of its own, so a screen reader finds it among the page's regions.
 */
export function TestNetworkBanner() {
  const network = useShopNetwork();
  const notice = network ? testNetworkNotice(network) : null;
  if (!notice) return null;
  return (
    <aside aria-label="Test network" data-testid="test-network-banner" className="border-b border-amber-300 bg-amber-100 text-amber-950 print:hidden">
      <p className="container flex items-center justify-center gap-2 py-1.5 text-center text-sm font-medium">
        <FlaskConical aria-hidden="true" className="size-4 shrink-0" />
        {notice}
      </p>
    </aside>
  );
}
