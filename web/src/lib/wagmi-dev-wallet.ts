import { injected } from 'wagmi';
import { http, type Address, type EIP1193Provider, type EIP1193RequestFn } from 'viem';

/**
 * A development-only wallet: anvil's unlocked account #0 behind a tiny EIP-1193 provider,
 * so a payment can be made on the local chain without installing MetaMask.
 *
 * Build-time switches (Vite env, read once when the app is built):
 * - `VITE_DEV_WALLET=true` offers 'Use dev wallet (anvil)' on the pay page. It is also on
 *   under `vite dev` (import.meta.env.DEV) and never in a plain production build, where
 *   this constant folds to `false` and the bundler drops this module.
 * - `VITE_DEV_RPC_URL` is the anvil node the dev wallet sends through
 *   (default http://127.0.0.1:8545; anvil answers cross-origin requests).
 */
export const DEV_WALLET_ENABLED: boolean = import.meta.env.DEV || import.meta.env.VITE_DEV_WALLET === 'true';

export const DEV_WALLET_ID = 'devWallet';

/** anvil's well-known account #0 (funded and unlocked on every fresh node). */
export const DEV_WALLET_ACCOUNT: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

export function devRpcUrl(): string {
  const url: unknown = import.meta.env.VITE_DEV_RPC_URL;
  return typeof url === 'string' && url !== '' ? url : 'http://127.0.0.1:8545';
}

function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * Answers the account and permission calls itself (anvil has no notion of a user
 * approving a site) and forwards everything else, eth_sendTransaction included, to the
 * node, which signs with the unlocked account.
 */
export function createDevWalletProvider(url = devRpcUrl()): EIP1193Provider {
  const node = http(url, { retryCount: 0 })({});
  // Accounts are shown only after an explicit connect, so a page load never
  // reconnects the dev wallet behind the user's back.
  let authorized = false;

  const request = (async ({ method, params }: { method: string; params?: unknown }) => {
    switch (method) {
      case 'eth_requestAccounts':
        authorized = true;
        return [DEV_WALLET_ACCOUNT];
      case 'eth_accounts':
        return authorized ? [DEV_WALLET_ACCOUNT] : [];
      case 'wallet_requestPermissions':
        authorized = true;
        return [{ parentCapability: 'eth_accounts', caveats: [{ type: 'restrictReturnedAccounts', value: [DEV_WALLET_ACCOUNT] }] }];
      case 'wallet_revokePermissions':
        authorized = false;
        return null;
      case 'wallet_switchEthereumChain': {
        const [{ chainId }] = params as [{ chainId: string }];
        const current = await node.request({ method: 'eth_chainId' });
        if (Number(current) === Number(chainId)) return null;
        throw rpcError(4902, `The dev wallet only reaches the node at ${url} (chain ${Number(current)}).`);
      }
      default:
        return node.request({ method, params } as Parameters<typeof node.request>[0]);
    }
  }) as EIP1193RequestFn;

  return { request, on: () => undefined, removeListener: () => undefined };
}

/** The wagmi connector of the dev wallet: an injected connector around the provider above. */
export function devWallet() {
  const provider = createDevWalletProvider();
  return injected({
    shimDisconnect: false,
    target: { id: DEV_WALLET_ID, name: 'Dev wallet (anvil)', provider: () => provider },
  });
}
