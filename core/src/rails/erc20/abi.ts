import { toEventSelector } from 'viem';

/**
 * The parts of the ERC-20 interface the token rail reads and sends, written out once.
 * `Transfer(address indexed from, address indexed to, uint256 value)`: ERC-721 emits an
 * event with the same selector and a fourth topic (the token id), so a log is an ERC-20
 * transfer only with exactly three topics and a 32-byte value (logs.ts).
 */
export const transferEvent = {
  type: 'event',
  name: 'Transfer',
  inputs: [
    { name: 'from', type: 'address', indexed: true },
    { name: 'to', type: 'address', indexed: true },
    { name: 'value', type: 'uint256', indexed: false },
  ],
} as const;

export const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');

/** `transfer(address,uint256) returns (bool)`, as ERC-20 says and USDC answers. */
export const erc20TransferAbi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const;

/**
 * `transfer(address,uint256)` with no outputs: what USDT's returns (nothing). The same
 * call data as erc20TransferAbi's; a simulation decoded with it succeeds whether the
 * token answers true or nothing, where the standard ABI fails on USDT ("returned no
 * data"). Whether a transfer happened is read from its Transfer log, never from a
 * return value (payout.ts).
 */
export const quietTransferAbi = [{ ...erc20TransferAbi[0], outputs: [] }] as const;

export const balanceOfAbi = [
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'account', type: 'address' }], outputs: [{ name: '', type: 'uint256' }] },
] as const;

/** The issuers' blocklist reads, by name (Token.blocklist): USDC's and USDT's. */
export const blocklistAbis = {
  isBlacklisted: [
    { type: 'function', name: 'isBlacklisted', stateMutability: 'view', inputs: [{ name: 'account', type: 'address' }], outputs: [{ name: '', type: 'bool' }] },
  ],
  getBlackListStatus: [
    { type: 'function', name: 'getBlackListStatus', stateMutability: 'view', inputs: [{ name: 'maker', type: 'address' }], outputs: [{ name: '', type: 'bool' }] },
  ],
} as const;

/** EIP-3009 (USDC's FiatTokenV2_2): `transferWithAuthorization` with the signature as bytes (a key's or an ERC-1271 wallet's), and `authorizationState`. */
export const eip3009Abi = [
  {
    type: 'function',
    name: 'transferWithAuthorization',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'validAfter', type: 'uint256' },
      { name: 'validBefore', type: 'uint256' },
      { name: 'nonce', type: 'bytes32' },
      { name: 'signature', type: 'bytes' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'authorizationState',
    stateMutability: 'view',
    inputs: [
      { name: 'authorizer', type: 'address' },
      { name: 'nonce', type: 'bytes32' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const;
