import type { z } from 'zod';
import { UserError } from '@shop/core';
import { idParam } from '@shop/core/contract';

/** Parses a request body with a contract schema; a failure is a 400 naming the field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new UserError(400, 'Request body must be a JSON object');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const errors = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = errors[0];
  throw new UserError(400, first ? `${first.path || 'Input'} ${first.message}`.trim() : 'Invalid input', errors);
}

/** Route ids are UUIDs; anything else cannot exist, so it is a 404, not a 500. */
export function parseId(value: unknown, what: string): string {
  const result = idParam.safeParse(value);
  if (!result.success) throw new UserError(404, `${what} not found`);
  return result.data.toLowerCase();
}
