import { decodeFunctionData, encodeAbiParameters, erc20Abi, hexToString, numberToHex, type Hex } from 'viem';
import { vi } from 'vitest';

type Listener = (...args: unknown[]) => void;
type RpcRequest = { method: string; params?: unknown };

export type FakeEthereumOptions = {
  account?: string;
  /** Hex chain id the wallet starts on. */
  chainId?: string;
  /** Answers eth_sendTransaction: a hash, or throws (e.g. a 4001 rejection). */
  sendTransaction?: (tx: Record<string, string>) => string;
  /** Answers personal_sign: a signature, or throws (e.g. a 4001 rejection). */
  signMessage?: (message: string) => string;
  /** Answers eth_signTypedData_v4 (the typed data as parsed from its JSON): a signature, or throws (e.g. a 4001 rejection). */
  signTypedData?: (typedData: SignedTypedData) => string;
  /** The account's ETH (eth_getBalance) and token balance (any ERC-20 `balanceOf` through eth_call); unset: the wallet does not answer. */
  ethBalance?: bigint;
  tokenBalance?: bigint;
  /** eth_gasPrice, in wei (1 gwei unless told). */
  gasPrice?: bigint;
};

/** Typed data as a wallet receives it in eth_signTypedData_v4: JSON, its numbers as strings. */
export type SignedTypedData = {
  domain: Record<string, unknown>;
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
};

/** An ERC-20 `transfer` the wallet was asked to send: the token contract, the recipient and the amount in the token's smallest units. */
export type SentTokenTransfer = { token: string; to: string; amount: bigint };

/** A signature of the right shape; the fake wallet does not really sign. */
export const FAKE_SIGNATURE = `0x${'5a'.repeat(65)}`;

/**
 * A stand-in for MetaMask's window.ethereum: the wallet boundary of the pay page.
 * It approves every request unless told otherwise and records what it was asked.
 */
export function createFakeEthereum(options: FakeEthereumOptions = {}) {
  const account = options.account ?? '0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1';
  let chainId = options.chainId ?? '0x1';
  let connected = false;
  const listeners = new Map<string, Set<Listener>>();
  const sent: Record<string, string>[] = [];
  /** The sent transactions whose data is an ERC-20 `transfer(to, amount)`, decoded. */
  const tokenTransfers: SentTokenTransfer[] = [];
  /** The messages (as text) it was asked to sign, and by which address. */
  const signed: { message: string; address: string }[] = [];
  /** The typed data (EIP-712) it was asked to sign, and by which address. */
  const signedTypedData: { typedData: SignedTypedData; address: string }[] = [];

  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) listener(...args);
  };

  const request = vi.fn(async ({ method, params }: RpcRequest): Promise<unknown> => {
    switch (method) {
      case 'wallet_requestPermissions':
        connected = true;
        return [{ parentCapability: 'eth_accounts', caveats: [{ type: 'restrictReturnedAccounts', value: [account] }] }];
      case 'eth_requestAccounts':
        connected = true;
        return [account];
      case 'eth_accounts':
        return connected ? [account] : [];
      case 'eth_chainId':
        return chainId;
      case 'wallet_switchEthereumChain': {
        chainId = (params as [{ chainId: string }])[0].chainId;
        emit('chainChanged', chainId);
        return null;
      }
      case 'wallet_revokePermissions':
        connected = false;
        return null;
      case 'eth_sendTransaction': {
        const tx = (params as [Record<string, string>])[0];
        sent.push(tx);
        const transfer = decodeTokenTransfer(tx);
        if (transfer) tokenTransfers.push(transfer);
        return (options.sendTransaction ?? (() => `0x${'ab'.repeat(32)}`))(tx);
      }
      case 'personal_sign': {
        const [data, address] = params as [Hex, string];
        const message = hexToString(data);
        signed.push({ message, address });
        return (options.signMessage ?? (() => FAKE_SIGNATURE))(message);
      }
      case 'eth_signTypedData_v4': {
        const [address, json] = params as [string, string];
        const typedData = JSON.parse(json) as SignedTypedData;
        signedTypedData.push({ typedData, address });
        return (options.signTypedData ?? (() => FAKE_SIGNATURE))(typedData);
      }
      case 'eth_getBalance':
        if (options.ethBalance === undefined) break;
        return numberToHex(options.ethBalance);
      case 'eth_gasPrice':
        return numberToHex(options.gasPrice ?? 1_000_000_000n);
      case 'eth_call': {
        const call = (params as [{ data?: Hex; input?: Hex }])[0];
        const data = call.data ?? call.input;
        if (options.tokenBalance === undefined || !data) break;
        if (decodeFunctionData({ abi: erc20Abi, data }).functionName !== 'balanceOf') break;
        return encodeAbiParameters([{ type: 'uint256' }], [options.tokenBalance]);
      }
    }
    throw Object.assign(new Error(`The fake wallet does not support ${method}`), { code: 4200 });
  });

  const provider = {
    isMetaMask: true as const,
    request,
    on: (event: string, listener: Listener) => {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(listener);
    },
    removeListener: (event: string, listener: Listener) => {
      listeners.get(event)?.delete(listener);
    },
  };
  return { provider, account, sent, tokenTransfers, signed, signedTypedData, request };
}

/** A wallet error as EIP-1193 providers throw it. */
export function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** The ERC-20 `transfer` a transaction calls, or undefined when its data is anything else (a plain value transfer has none). */
function decodeTokenTransfer(tx: Record<string, string>): SentTokenTransfer | undefined {
  if (!tx.data || !tx.to) return undefined;
  try {
    const call = decodeFunctionData({ abi: erc20Abi, data: tx.data as Hex });
    if (call.functionName !== 'transfer') return undefined;
    const [to, amount] = call.args;
    return { token: tx.to, to, amount };
  } catch {
    return undefined;
  }
}
