import { getAddress, isAddress, isHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deployDepositFactory } from './lib/deposit-factory.ts';

/**
 * `npm run deposits:deploy`: deploys the deposit factory for the shop's receiving address,
 * once. Reads ETH_RPC_URL, RECEIVING_ADDRESS and DEPLOYER_PRIVATE_KEY (an account with a
 * little ETH for the gas; it gains no power over the factory, which has no owner), and
 * prints the DEPOSIT_FACTORY_ADDRESS to configure.
 */
const rpcUrl = process.env.ETH_RPC_URL;
const receiver = process.env.RECEIVING_ADDRESS;
const key = process.env.DEPLOYER_PRIVATE_KEY;
const problems = [
  !rpcUrl && 'ETH_RPC_URL (the node to send the deployment to)',
  !(receiver && isAddress(receiver)) && 'RECEIVING_ADDRESS (the address every deposit is swept to)',
  !(key && isHex(key) && key.length === 66) && 'DEPLOYER_PRIVATE_KEY (0x and 64 hex digits: the account paying the gas)',
].filter(Boolean);
if (problems.length > 0) {
  console.error(`Set ${problems.join(', ')}.`);
  process.exit(1);
}
const deployed = await deployDepositFactory({ rpcUrl: rpcUrl!, account: privateKeyToAccount(key as `0x${string}`), receiver: getAddress(receiver!) });
console.log(`Deposit factory deployed at ${deployed.address} (transaction ${deployed.txHash}, ${deployed.gasUsed} gas).`);
console.log(`Configure the api and the worker with DEPOSIT_FACTORY_ADDRESS=${deployed.address}`);
