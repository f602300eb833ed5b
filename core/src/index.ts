export * from './config.ts';
export * from './logger.ts';
export * from './db.ts';
export * from './redis.ts';
export * from './queues.ts';
export * from './runtime.ts';
export * from './password.ts';
export * from './referral-code.ts';
