import path from 'node:path';
import { createTestClient, encodePacked, http, keccak256, publicActions, walletActions, type Address, type Hash, type Hex } from 'viem';
import { mainnet } from 'viem/chains';
import { REPO_ROOT } from '../lib/paths.ts';
import { compileSolidity } from '../lib/solidity.ts';

const SOURCE = path.join(REPO_ROOT, 'scripts/testing/smart-wallet.sol');

/**
 * A smart-contract wallet on anvil (scripts/testing/smart-wallet.sol), owned by one of
 * anvil's unlocked accounts: `pay` sends ETH to an address through an internal call,
 * the way Safe and ERC-4337 wallets pay.
 */
export async function deploySmartWallet(rpcUrl: string, owner: Address, fundWei = 10n ** 18n) {
  const { abi, bytecode } = await compileSolidity(SOURCE, 'TestSmartWallet');
  const client = createTestClient({ mode: 'anvil', chain: mainnet, transport: http(rpcUrl) }).extend(publicActions).extend(walletActions);
  const deploy = await client.deployContract({ abi, bytecode, args: [owner], account: owner, chain: mainnet, value: fundWei });
  const receipt = await client.waitForTransactionReceipt({ hash: deploy, pollingInterval: 50 });
  const address = receipt.contractAddress as Address;
  return {
    address,
    /** The wallet pays `to` from its own balance (the owner sends the transaction). */
    async pay(to: Address, value: bigint): Promise<Hash> {
      const hash = await client.writeContract({ abi, address, functionName: 'execute', args: [to, value], account: owner, chain: mainnet, gas: 200_000n });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    },
    /** The owner's signature of a payment anyone may relay (`executeSigned`, as a Safe's execTransaction). */
    async signPayment(to: Address, value: bigint, nonce: bigint): Promise<Hex> {
      const digest = keccak256(encodePacked(['address', 'address', 'uint256', 'uint256'], [address, to, value, nonce]));
      return client.signMessage({ account: owner, message: { raw: digest } });
    },
    /** Sends `value` along with the call and the wallet passes it on to `to`. */
    async forward(to: Address, value: bigint): Promise<Hash> {
      const hash = await client.writeContract({ abi, address, functionName: 'forward', args: [to], account: owner, chain: mainnet, value, gas: 200_000n });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    },
  };
}

const ODD_PAYER = path.join(REPO_ROOT, 'scripts/testing/odd-payer.sol');

/**
 * scripts/testing/odd-payer.sol on anvil, driven by one unlocked account: `call` sends
 * one of its functions and waits for the receipt.
 */
export async function deployOddPayer(rpcUrl: string, from: Address) {
  const { abi, bytecode } = await compileSolidity(ODD_PAYER, 'OddPayer');
  const client = createTestClient({ mode: 'anvil', chain: mainnet, transport: http(rpcUrl) }).extend(publicActions).extend(walletActions);
  const deploy = await client.deployContract({ abi, bytecode, account: from, chain: mainnet });
  const address = (await client.waitForTransactionReceipt({ hash: deploy, pollingInterval: 50 })).contractAddress as Address;
  return {
    address,
    abi,
    async call(functionName: 'viaCallcode' | 'viaDelegatecall' | 'batch' | 'sweep' | 'take', args: readonly unknown[], value = 0n): Promise<Hash> {
      const hash = await client.writeContract({ abi, address, functionName, args, value, account: from, chain: mainnet, gas: 300_000n } as never);
      await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    },
  };
}

const RELAYER = path.join(REPO_ROOT, 'scripts/testing/relayer.sol');

/**
 * scripts/testing/relayer.sol on anvil, owned by `owner`: in one transaction it pays the
 * shop itself and relays another wallet's signed payment (a batch an attacker shapes).
 */
export async function deployBatchRelayer(rpcUrl: string, owner: Address) {
  const { abi, bytecode } = await compileSolidity(RELAYER, 'BatchRelayer');
  const client = createTestClient({ mode: 'anvil', chain: mainnet, transport: http(rpcUrl) }).extend(publicActions).extend(walletActions);
  const deploy = await client.deployContract({ abi, bytecode, account: owner, chain: mainnet });
  const address = (await client.waitForTransactionReceipt({ hash: deploy, pollingInterval: 50 })).contractAddress as Address;
  return {
    address,
    async payAndRelay(shop: Address, wallet: Address, payment: { to: Address; value: bigint; nonce: bigint; signature: Hex }, ownValue: bigint): Promise<Hash> {
      const hash = await client.writeContract({
        abi, address, functionName: 'payAndRelay', args: [shop, wallet, payment.to, payment.value, payment.nonce, payment.signature],
        value: ownValue, account: owner, chain: mainnet, gas: 300_000n,
      } as never);
      await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    },
  };
}
