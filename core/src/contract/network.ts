import { z } from 'zod';
import { displayCurrencyJson } from './locales.ts';

/**
 * Which network the shop runs on: the one home of its name, of whether it is a test
 * network (a banner on every page, a name in every e-mail) and of its block explorer.
 * The server derives it from the configuration (CHAIN_ID, DEV_CHAIN, SHOP_NETWORK_LABEL,
 * EXPLORER_URL: core/src/infra/config.ts); the web app reads it from GET /api/config.
 * Browser-safe: plain values in, plain values out.
 */
export const shopNetworkJson = z.object({
  /** The chain id payments count on, which the wallet link and QR code carry (EIP-681). */
  chainId: z.number().int().positive(),
  /** What the shop calls the network: 'Ethereum mainnet', 'Sepolia', the configured label. */
  name: z.string(),
  /** Not Ethereum mainnet's real money: a development chain, a test network, or a labelled shop. */
  testNetwork: z.boolean(),
  /** A local chain with published keys (anvil's): the pay page may offer its dev wallet. */
  developmentChain: z.boolean(),
  /** The block explorer's origin (links to /tx/HASH and /address/ADDRESS), or null: no links. */
  explorerUrl: z.string().nullable(),
});
export type ShopNetwork = z.infer<typeof shopNetworkJson>;

/** GET /api/config: what the browser needs to know about this shop before any page. */
export const shopConfigJson = z.object({
  network: shopNetworkJson,
  /** Currencies prices may also be shown in (DISPLAY_CURRENCIES), each at its rate and day. */
  displayCurrencies: z.array(displayCurrencyJson),
});
export type ShopConfigJson = z.infer<typeof shopConfigJson>;

export const MAINNET_CHAIN_ID = 1;

/** Public test networks by chain id: their names and Etherscan's explorer for each. */
const KNOWN_TEST_NETWORKS: Record<number, { name: string; explorerUrl: string }> = {
  11155111: { name: 'Sepolia', explorerUrl: 'https://sepolia.etherscan.io' },
  17000: { name: 'Holesky', explorerUrl: 'https://holesky.etherscan.io' },
  560048: { name: 'Hoodi', explorerUrl: 'https://hoodi.etherscan.io' },
};

export type NetworkSettings = {
  chainId: number;
  /** A local chain the shop's developers run (anvil): its keys are public. */
  developmentChain: boolean;
  /** SHOP_NETWORK_LABEL: names the network and marks the shop as a test shop. */
  label?: string | undefined;
  /** EXPLORER_URL: an origin, 'none', or unset (the network's default). */
  explorerUrl?: string | undefined;
};

/**
 * The network of a configuration. The explorer defaults to Etherscan on mainnet and on the
 * public test networks it knows, and to none on a development chain or an unknown chain:
 * a link to mainnet's explorer for a local transaction points at nothing, or at someone
 * else's.
 */
export function shopNetwork(s: NetworkSettings): ShopNetwork {
  const known = s.developmentChain ? undefined : KNOWN_TEST_NETWORKS[s.chainId];
  const mainnet = s.chainId === MAINNET_CHAIN_ID && !s.developmentChain;
  const defaultName = mainnet ? 'Ethereum mainnet' : s.developmentChain ? 'Local development chain' : (known?.name ?? `chain ${s.chainId}`);
  const defaultExplorer = mainnet ? 'https://etherscan.io' : (known?.explorerUrl ?? null);
  const explorer = s.explorerUrl === undefined ? defaultExplorer : s.explorerUrl === 'none' ? null : s.explorerUrl.replace(/\/+$/, '');
  return {
    chainId: s.chainId,
    name: s.label ?? defaultName,
    testNetwork: !mainnet || s.label !== undefined,
    developmentChain: s.developmentChain,
    explorerUrl: explorer,
  };
}

/** The banner of a test shop, on every page; null on mainnet. */
export function testNetworkNotice(network: ShopNetwork): string | null {
  return network.testNetwork ? `Test network: ${network.name}. Payments here are not real money.` : null;
}

/** The explorer's page of a transaction, or null when no explorer is configured. */
export function explorerTxUrl(network: Pick<ShopNetwork, 'explorerUrl'>, hash: string): string | null {
  return network.explorerUrl ? `${network.explorerUrl}/tx/${encodeURIComponent(hash)}` : null;
}

/** The explorer's name as a link shows it: 'Etherscan' for Etherscan's sites, else its host. */
export function explorerName(network: Pick<ShopNetwork, 'explorerUrl'>): string | null {
  if (!network.explorerUrl) return null;
  const host = new URL(network.explorerUrl).host.replace(/^www\./, '');
  return /(^|\.)etherscan\.io$/.test(host) ? 'Etherscan' : host;
}
