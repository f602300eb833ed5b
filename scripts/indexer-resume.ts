import { createDb, getConfig, indexerHalt, resumeIndexer } from '@shop/core';

/**
 * `npm run indexer:resume`: what an operator runs after the indexer halted itself (the
 * node served another chain, or the chain dropped more than FINALITY_DEPTH indexed
 * blocks). Without flags it prints the halt; `-- --retry` clears it once ETH_RPC_URL
 * points at the right node (a node that is still wrong halts it again at once);
 * `-- --accept-reorg` also lets the next rewind go deeper than FINALITY_DEPTH, once:
 * transfers in the dropped blocks are verified again and unpaid if they are gone.
 */
const args = new Set(process.argv.slice(2));
const known = new Set(['--retry', '--accept-reorg']);
for (const a of args) {
  if (!known.has(a)) {
    console.error(`unknown option ${a}; use --retry or --accept-reorg`);
    process.exit(2);
  }
}
const config = getConfig();
const db = createDb({ url: config.databaseUrl });
try {
  const halt = await indexerHalt(db, config.chainId);
  if (!halt) {
    console.log('The indexer is not halted.');
  } else if (args.size === 0) {
    console.log(`The indexer halted at ${halt.since.toISOString()}: ${halt.reason}`);
    console.log('Fix the cause (point ETH_RPC_URL at a node on the right chain), then run: npm run indexer:resume -- --retry');
    console.log('If the chain really dropped those blocks and the payments in them must be verified again: npm run indexer:resume -- --accept-reorg');
  } else {
    await resumeIndexer(db, config.chainId, { acceptReorg: args.has('--accept-reorg') });
    console.log(args.has('--accept-reorg') ? 'Resumed; the next rewind may go deeper than FINALITY_DEPTH once.' : 'Resumed; the indexer checks the node again on its next tick.');
  }
} finally {
  await db.$disconnect();
}
