import { bytesToHex, getAddress, hexToBytes, keccak256, padHex, sliceHex, type Address, type Hex, type PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import { forwarderOf, proxyInitCode } from './addresses.ts';
import { DEPOSIT_FACTORY_RUNTIME, DEPOSIT_FORWARDER_RUNTIME } from './factory-bytecode.ts';

/**
 * Is the configured deposit factory the shop's: the one check (docs/decisions.md, "Is the
 * deposit factory ours"), made by `npm run deposits:deploy` and `npm start` after deploying,
 * by the api and the worker when they start and every so often (factory-trust.ts), and by
 * the sweeper and the token recovery before they send anything.
 *
 * It trusts the code, not the factory's answers: a look-alike answers receiver(),
 * forwarder() and proxyCodeHash() just as the shop's does while its forwarder pays someone
 * else. The code at the factory's address and at its forwarder's (the factory's first
 * CREATE) must be, byte for byte, what DepositFactory.sol deploys for this receiving
 * address: the committed deployed code (factory-bytecode.ts, `npm run contracts:build`)
 * with the constructor's values written where the compiler put them (the receiving
 * address, the forwarder's address, the proxy's init-code hash). Neither contract has
 * storage, so the same code is the same behaviour; and every deposit address is a CREATE2
 * address of this factory, whose code deploys only the proxy to this forwarder there.
 */

type DeployedCode = { code: Hex; immutables: Readonly<Record<string, readonly { start: number; length: number }[]>> };

/** `deployed`'s code with each immutable's value (a 32-byte word, left-padded) written at its places. */
function withImmutables(deployed: DeployedCode, values: Record<string, Hex>): Hex {
  const bytes = hexToBytes(deployed.code);
  for (const [name, places] of Object.entries(deployed.immutables)) {
    const value = values[name];
    if (!value) throw new Error(`no value for the immutable ${name}`);
    const word = hexToBytes(padHex(value, { size: 32 }));
    for (const { start, length } of places) bytes.set(word.subarray(32 - length), start);
  }
  return bytesToHex(bytes);
}

/** True when `code` is `deployed`'s code whatever its immutables hold (the same contract, other constructor values). */
function sameContract(code: Hex, deployed: DeployedCode): boolean {
  const bytes = hexToBytes(code);
  // The compiler leaves zeros where the immutables go.
  for (const { start, length } of Object.values(deployed.immutables).flat()) bytes.fill(0, start, start + length);
  return bytesToHex(bytes) === deployed.code.toLowerCase();
}

/** What the factory at `factory` and its forwarder run when DepositFactory.sol was deployed there for `receiver`. */
export function expectedDepositCode(factory: Address, receiver: Address): { factory: Hex; forwarder: Hex; forwarderAddress: Address } {
  const forwarderAddress = getAddress(forwarderOf(factory));
  return {
    factory: withImmutables(DEPOSIT_FACTORY_RUNTIME, { receiver, forwarder: forwarderAddress, proxyCodeHash: keccak256(proxyInitCode(forwarderAddress)) }),
    forwarder: withImmutables(DEPOSIT_FORWARDER_RUNTIME, { receiver }),
    forwarderAddress,
  };
}

/**
 * Why the configured factory must not be used, or null when its code and its forwarder's
 * are the shop's for the receiving address. A node that fails to answer throws (the caller
 * asks again later): that is never taken for a look-alike.
 */
export async function factoryProblem(deps: { config: Pick<AppConfig, 'depositFactoryAddress' | 'receivingAddress'>; chain: PublicClient }): Promise<string | null> {
  if (!deps.config.depositFactoryAddress) return 'no deposit factory is configured';
  const factory = getAddress(deps.config.depositFactoryAddress);
  const receiver = getAddress(deps.config.receivingAddress);
  const expected = expectedDepositCode(factory, receiver);
  const codeAt = async (address: Address): Promise<Hex> => ((await deps.chain.getCode({ address })) ?? '0x').toLowerCase() as Hex;
  const [factoryCode, forwarderCode] = await Promise.all([codeAt(factory), codeAt(expected.forwarderAddress)]);
  if (factoryCode === '0x') return `no contract is deployed at the deposit factory address ${factory}`;
  if (factoryCode !== expected.factory) {
    // The shop's factory with other values: say which receiving address it pays, read from its code.
    const place = DEPOSIT_FACTORY_RUNTIME.immutables.receiver[0];
    const paysTo = sameContract(factoryCode, DEPOSIT_FACTORY_RUNTIME) ? getAddress(sliceHex(factoryCode, place.start + 12, place.start + 32)) : null;
    if (paysTo && paysTo !== receiver) return `the deposit factory ${factory} was deployed for the receiving address ${paysTo}, not ${receiver}`;
    return `the code at ${factory} is not the shop's deposit factory (DepositFactory.sol)`;
  }
  if (forwarderCode !== expected.forwarder) return `the deposit factory ${factory} forwards deposits through ${expected.forwarderAddress}, whose code is not the shop's forwarder paying ${receiver}`;
  return null;
}
