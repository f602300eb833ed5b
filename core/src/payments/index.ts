export * from './amounts.ts';
export * from './eth-price.ts';
export * from './quotes.ts';
export * from './settle.ts';
export * from './verifier.ts';
export * from './indexer.ts';
export * from './maintenance.ts';
export * from './stock.ts';
