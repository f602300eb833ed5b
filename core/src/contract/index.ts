// Browser-safe entry point: API schemas and types, money formatting. Nothing in this
// folder may import server code (Prisma, ioredis, node: modules).
export * from './money.ts';
export * from './api-error.ts';
