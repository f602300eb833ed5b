import { createConfig, http, injected, type Connector, type CreateConnectorFn } from 'wagmi';
import { hoodi, holesky, mainnet, sepolia } from 'wagmi/chains';
import { hasInjectedProvider } from './injected-provider';
import { DEV_WALLET_ENABLED, DEV_WALLET_ID, devWallet } from './wagmi-dev-wallet';

/**
 * Wallet setup for the pay page. Only the pay route imports this module, so wagmi and
 * viem stay out of every other page's bundle (DESIGN.md section 6).
 *
 * Payments go to Ethereum mainnet only (SPEC.md section 9). MetaMask is reached through
 * its EIP-6963 announcement when it makes one, otherwise through window.ethereum.
 */
export const REQUIRED_CHAIN = mainnet;

/** The chains a shop may run on (GET /api/config names which): mainnet, and the public test networks of a staging shop. */
export const SHOP_CHAINS = [mainnet, sepolia, holesky, hoodi] as const;
export type ShopChainId = (typeof SHOP_CHAINS)[number]['id'];

/** The chain the wallet must be on: the shop's (a development chain is chain id 1, as mainnet), mainnet until it is known. */
export function requiredChainId(shopChainId: number | undefined): ShopChainId {
  return (SHOP_CHAINS.find((c) => c.id === shopChainId) ?? REQUIRED_CHAIN).id;
}

/** The rdns MetaMask announces itself with under EIP-6963. */
const METAMASK_RDNS = 'io.metamask';

export function createWagmiConfig() {
  return createConfig({
    chains: SHOP_CHAINS,
    connectors: [injected({ target: 'metaMask' }), ...(DEV_WALLET_ENABLED ? [devWallet()] : [])],
    // The pay page never reads the chain through wagmi (the api quotes and verifies);
    // the transport is only a required default.
    transports: { [mainnet.id]: http(), [sepolia.id]: http(), [holesky.id]: http(), [hoodi.id]: http() },
    multiInjectedProviderDiscovery: true,
  });
}

export const wagmiConfig = createWagmiConfig();

declare module 'wagmi' {
  interface Register {
    config: typeof wagmiConfig;
  }
}

export { hasInjectedProvider };

export function isDevWalletConnector(connector: Connector): boolean {
  return DEV_WALLET_ENABLED && connector.id === DEV_WALLET_ID;
}

/** Wallets found on the page: window.ethereum or any EIP-6963 announcement. */
export function hasBrowserWallet(connectors: readonly Connector[]): boolean {
  return hasInjectedProvider() || connectors.some((c) => c.id !== 'metaMask' && !isDevWalletConnector(c));
}

function rank(connector: Connector): number {
  if (connector.id === METAMASK_RDNS) return 0;
  if (connector.id === 'metaMask') return 1;
  return 2;
}

/**
 * The connector behind 'Connect to MetaMask': MetaMask first, then any other browser
 * wallet (they speak the same protocol), or undefined when the page has none.
 */
export async function findWalletConnector(
  connectors: readonly Connector[],
): Promise<Connector | CreateConnectorFn | undefined> {
  const candidates = connectors.filter((c) => c.type === 'injected' && !isDevWalletConnector(c)).sort((a, b) => rank(a) - rank(b));
  for (const connector of candidates) {
    const provider = await connector.getProvider().catch(() => undefined);
    if (provider) return connector;
  }
  return hasInjectedProvider() ? injected() : undefined;
}
