import { createChainClient, createDb, getConfig, recoverDepositToken } from '@shop/core';

/**
 * `npm run deposits:recover-token -- <orderId> <tokenAddress>`: an ERC-20 token sent by
 * mistake to an order's deposit address goes to the receiving address (the only place the
 * deposit factory sends anything), through the factory's recoverToken, paid from the
 * sweeper's gas wallet (SWEEPER_PRIVATE_KEY or SWEEPER_ADDRESS; DEPOSIT_FACTORY_ADDRESS,
 * DATABASE_URL and ETH_RPC_URL as the worker has them). Prints what moved; nothing is sent
 * when the address holds none of the token. Name only a token you know: its code runs in
 * the call (it can waste the call's gas, nothing else).
 */
const [orderId, token] = process.argv.slice(2).filter((a) => a !== '--');
if (!orderId || !token) {
  console.error('Usage: npm run deposits:recover-token -- <orderId> <tokenAddress>');
  process.exit(2);
}
const config = getConfig();
const db = createDb({ url: config.databaseUrl, poolSize: 2 });
try {
  const result = await recoverDepositToken({ config, db, chain: createChainClient(config.ethRpcUrl) }, orderId, token);
  // In the token's smallest units (its decimals are the token's own business).
  const raw = (n: bigint) => `${n} units`;
  if (result.status === 'nothing-to-recover') {
    console.log(`The deposit address ${result.depositAddress} of order ${orderId} holds none of the token ${result.token}: nothing sent.`);
  } else {
    console.log(`Token ${result.token}: ${raw(result.amount)} at the deposit address ${result.depositAddress} of order ${orderId}.`);
    console.log(`Transaction ${result.txHash}: ${result.status}, ${result.gasUsed} gas.`);
    console.log(`The receiving address ${result.receiver} held ${raw(result.receiverBefore)}, now ${raw(result.receiverAfter)}.`);
  }
  process.exitCode = result.status === 'reverted' ? 1 : 0;
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
