import { concatHex, getContractAddress, getCreate2Address, keccak256, stringToHex, type Address, type Hex } from 'viem';

/**
 * Where an order's deposit address is, computed without asking the node: the CREATE2
 * address the deposit factory (DepositFactory.sol) gives the EIP-1167 proxy salted by the
 * order. Nothing is deployed until a sweep; the address holds ETH meanwhile like any other.
 */

/** The forwarder every proxy delegates to: the factory's first CREATE (a contract's nonce starts at 1, EIP-161). */
export function forwarderOf(factory: Address): Address {
  return getContractAddress({ opcode: 'CREATE', from: factory, nonce: 1n });
}

/** The 55 bytes of an EIP-1167 proxy to `forwarder` (DepositFactory.proxyInitCode). */
export function proxyInitCode(forwarder: Address): Hex {
  return concatHex(['0x3d602d80600a3d3981f3363d3d373d3d3d363d73', forwarder.toLowerCase() as Hex, '0x5af43d82803e903d91602b57fd5bf3']);
}

/** The salt of an order's deposit address: the hash of its id, so no two orders share one. */
export function depositSalt(orderId: string): Hex {
  return keccak256(stringToHex(`order:${orderId.toLowerCase()}`));
}

/** A factory's deposit addresses: the proxy's init code hash is worked out once. */
export function depositAddresses(factory: Address) {
  const bytecodeHash = keccak256(proxyInitCode(forwarderOf(factory)));
  return {
    factory,
    /** The deposit address of one order, lower-cased as the shop stores addresses. */
    of: (orderId: string): Address => getCreate2Address({ from: factory, salt: depositSalt(orderId), bytecodeHash }).toLowerCase() as Address,
  };
}

const byFactory = new Map<string, ReturnType<typeof depositAddresses>>();

/** An order's deposit address under `factory` (the factory's proxy hash worked out once per process). */
export function depositAddressOf(factory: Address, orderId: string): Address {
  let addresses = byFactory.get(factory.toLowerCase());
  if (!addresses) byFactory.set(factory.toLowerCase(), (addresses = depositAddresses(factory)));
  return addresses.of(orderId);
}

/**
 * Whether `address` is the one `factory` gives order `orderId`: the one rule for an
 * address being the shop's deposit forwarder (a sweep's items, its own money moving, a
 * sweep candidate). An order may hold another factory's address (a look-alike's, or an
 * earlier factory's): its flushes are no sweep of the shop's.
 */
export const factoryGave = (factory: Address, orderId: string, address: string): boolean => depositAddressOf(factory, orderId) === address.toLowerCase();
