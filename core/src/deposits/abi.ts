import { parseEventLogs, type Log } from 'viem';

/** The deposit factory's and forwarder's calls the shop makes (DepositFactory.sol; a test checks them against the compiled ABI). */
export const depositFactoryAbi = [
  { type: 'constructor', stateMutability: 'nonpayable', inputs: [{ name: 'receiver_', type: 'address' }] },
  { type: 'function', name: 'receiver', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'address' }] },
  { type: 'function', name: 'forwarder', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'address' }] },
  { type: 'function', name: 'proxyCodeHash', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'bytes32' }] },
  { type: 'function', name: 'proxyInitCode', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'bytes' }] },
  { type: 'function', name: 'depositAddress', stateMutability: 'view', inputs: [{ name: 'salt', type: 'bytes32' }], outputs: [{ name: '', type: 'address' }] },
  { type: 'function', name: 'sweep', stateMutability: 'nonpayable', inputs: [{ name: 'salts', type: 'bytes32[]' }], outputs: [] },
  {
    type: 'function',
    name: 'recoverToken',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'salt', type: 'bytes32' },
      { name: 'token', type: 'address' },
    ],
    outputs: [],
  },
] as const;

export const depositForwarderAbi = [
  { type: 'function', name: 'flush', stateMutability: 'nonpayable', inputs: [], outputs: [] },
  { type: 'function', name: 'flushToken', stateMutability: 'nonpayable', inputs: [{ name: 'token', type: 'address' }], outputs: [] },
  { type: 'function', name: 'receiver', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'address' }] },
  { type: 'event', name: 'Flushed', inputs: [{ name: 'amount', type: 'uint256', indexed: false }], anonymous: false },
] as const;

/** The event a forwarder emits from its deposit address when it flushes: what every reading of a sweep goes by. */
export const flushedEvent = depositForwarderAbi[3];

/** What each address flushed in these logs: only Flushed events, by the address that emitted them (only the proxy at a deposit address can). */
export function flushedBy(logs: Log[]): Map<string, bigint> {
  const flushed = new Map<string, bigint>();
  for (const log of parseEventLogs({ abi: depositForwarderAbi, eventName: 'Flushed', logs, strict: true })) {
    const address = log.address.toLowerCase();
    flushed.set(address, (flushed.get(address) ?? 0n) + log.args.amount);
  }
  return flushed;
}
