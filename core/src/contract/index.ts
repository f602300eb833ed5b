// Browser-safe entry point: API schemas and types, money formatting. Nothing in this
// folder may import server code (Prisma, ioredis, node: modules).
export * from './money.ts';
export * from './api-error.ts';
export * from './common.ts';
export * from './users.ts';
export * from './products.ts';
export * from './orders.ts';
export * from './order-reference.ts';
export * from './admin-orders.ts';
export * from './cashouts.ts';
export * from './statement.ts';
export * from './payouts.ts';
export * from './webhooks.ts';
export * from './wallet.ts';
export * from './audit.ts';
export * from './approvals.ts';
export * from './admin-overview.ts';
export * from './ops.ts';
