/// <reference lib="dom" />
/**
 * A test wallet injected into the page before any script runs: an EIP-1193 provider
 * that announces itself as MetaMask (window.ethereum and EIP-6963) and forwards
 * requests to anvil, whose unlocked dev accounts sign. Like a real extension it talks
 * to its node outside the page (through a function the test exposes, WALLET_RPC_BINDING),
 * so the shop's Content-Security-Policy, which allows no other origin, does not apply. Variants cover what users meet:
 * a wallet on another chain, a rejected connection, a rejected payment, and a
 * smart-contract account (ERC-4337 style): the page sees the contract's address, a
 * payment becomes a call of the contract's `execute(to, value)` sent by its owner, and
 * a message is signed by the owner (the contract answers ERC-1271 for it).
 */
/** The name of the function (exposed by the test harness) the wallet sends JSON-RPC through. */
export const WALLET_RPC_BINDING = '__testWalletRpc';

export type WalletOptions = {
  rpcUrl: string;
  account: string;
  /** Chain the wallet starts on (hex); '0x1' is mainnet. */
  chainId?: string;
  rejectConnect?: boolean;
  rejectPayment?: boolean;
  /** A smart-contract account: `account` is the contract, `owner` an unlocked key that drives it. */
  smartAccount?: { owner: string; executeSelector: string } | null;
};

// Runs in the browser: keep it self-contained (no imports, no closures over Node values).
function installWallet(opts: Required<WalletOptions>): void {
  let chainId = opts.chainId;
  let connected = false;
  const listeners = new Map<string, Set<(arg: unknown) => void>>();
  const emit = (event: string, arg: unknown) => listeners.get(event)?.forEach((fn) => fn(arg));
  const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
  let id = 0;
  async function forward(method: string, params: unknown[] = []) {
    const send = (window as unknown as Record<string, (body: string) => Promise<string>>)['__testWalletRpc']!;
    const text = await send(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }));
    const body = JSON.parse(text) as { result?: unknown; error?: { code?: number; message?: string } };
    if (body.error) throw rpcError(body.error.code ?? -32603, body.error.message ?? 'RPC error');
    return body.result;
  }
  const provider = {
    isMetaMask: true,
    _events: {},
    async request({ method, params }: { method: string; params?: unknown[] }) {
      const log = ((window as unknown as { __walletLog?: unknown[] }).__walletLog ??= []);
      log.push({ method, params });
      switch (method) {
        case 'eth_requestAccounts':
        case 'wallet_requestPermissions':
          if (opts.rejectConnect) throw rpcError(4001, 'User rejected the request.');
          connected = true;
          emit('accountsChanged', [opts.account]);
          return method === 'eth_requestAccounts' ? [opts.account] : [{ parentCapability: 'eth_accounts' }];
        case 'wallet_getPermissions':
          return connected ? [{ parentCapability: 'eth_accounts' }] : [];
        case 'wallet_revokePermissions':
          connected = false;
          return null;
        case 'eth_accounts':
          return connected ? [opts.account] : [];
        case 'eth_chainId':
          return chainId;
        case 'net_version':
          return String(parseInt(chainId, 16));
        case 'wallet_switchEthereumChain': {
          const wanted = (params?.[0] as { chainId: string }).chainId;
          chainId = wanted;
          emit('chainChanged', wanted);
          return null;
        }
        case 'eth_sendTransaction': {
          if (opts.rejectPayment) throw rpcError(4001, 'User denied transaction signature.');
          if (chainId !== '0x1') throw rpcError(4901, 'Wrong chain');
          const smart = opts.smartAccount;
          if (!smart) return forward(method, params);
          const tx = (params?.[0] ?? {}) as { to: string; value?: string };
          const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0');
          const data = `${smart.executeSelector}${word(tx.to.toLowerCase())}${word(tx.value ?? '0x0')}`;
          return forward(method, [{ from: smart.owner, to: opts.account, data, value: '0x0', gas: '0x30d40' }]);
        }
        case 'personal_sign': {
          const smart = opts.smartAccount;
          return forward(method, smart ? [params?.[0], smart.owner] : params);
        }
        default:
          return forward(method, params);
      }
    },
    on(event: string, fn: (arg: unknown) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(fn);
      return provider;
    },
    removeListener(event: string, fn: (arg: unknown) => void) {
      listeners.get(event)?.delete(fn);
      return provider;
    },
  };
  (window as unknown as { ethereum: unknown }).ethereum = provider;
  const info = { uuid: '6d3d8f47-5a6e-4f2b-9a3c-0c1f7e7a9b10', name: 'MetaMask', icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>', rdns: 'io.metamask' };
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
}

export function walletInitScript(opts: WalletOptions): string {
  const full: Required<WalletOptions> = { chainId: '0x1', rejectConnect: false, rejectPayment: false, smartAccount: null, ...opts };
  return `(${installWallet.toString()})(${JSON.stringify(full)});`;
}
