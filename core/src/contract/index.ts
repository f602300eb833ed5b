// Browser-safe entry point: API schemas and types, money formatting. Nothing in this
// folder may import server code (Prisma, ioredis, node: modules).
export * from './money.ts';
export * from './api-error.ts';
export * from './common.ts';
export * from './users.ts';
export * from './products.ts';
export * from './orders.ts';
export * from './order-reference.ts';
export * from './time.ts';
export * from './cashouts.ts';
export * from './statement.ts';
export * from './payouts.ts';
export * from './webhooks.ts';
export * from './wallet.ts';
export * from './audit.ts';
export * from './approvals.ts';
export * from './admin-overview.ts';
// Response schemas (and their types): what the api answers. In modules of their own, so
// the web app, which imports only their types, loads none of them.
export * from './json-parts.ts';
export * from './users-json.ts';
export * from './products-json.ts';
export * from './orders-json.ts';
export * from './payouts-json.ts';
export * from './approvals-json.ts';
export * from './cashouts-json.ts';
export * from './statement-json.ts';
export * from './audit-json.ts';
export * from './webhooks-json.ts';
export * from './admin-orders-json.ts';
export * from './admin-overview-json.ts';
export * from './ops-json.ts';
export * from './deposits-json.ts';
// Which network the shop runs on (GET /api/config), its explorer links.
export * from './network.ts';
// The languages the shop speaks and the currencies it can show prices in.
export * from './locales.ts';
export * from './locale-format.ts';
// The ERC-20 tokens the shop knows on mainnet (USDC, USDT): addresses, decimals, feeds.
export * from './tokens.ts';
// Paying a token with one signature (EIP-3009): the typed data, the body, the states.
export * from './authorization.ts';
// The one mapper from a stored order to its JSON (buyer's and admin's views).
export * from './order-views.ts';
// Drawing a public page on the server: what the api hands the web build's server bundle.
export * from './page-render.ts';
export * from './page-modules.ts';
export * from './route-preloads.ts';
