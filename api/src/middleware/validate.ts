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
  throw new UserError(400, first ? fieldMessage(first.path, first.message) : 'Invalid input', errors);
}

/** Fields whose name does not read as words once split: what the forms call them. */
const FIELD_LABELS: Record<string, string> = { referredBy: 'Referral code', durationDays: 'Term (days)', txHash: 'Transaction hash', url: 'URL', _id: 'Id' };

/**
 * A field's problem as a person reads it: 'Password must be at least 8 characters', not
 * 'password must be at least 8 characters'. The field's name is split into words
 * (loadedActiveBalance -> 'Loaded active balance'); the list path keeps its position.
 */
export function fieldMessage(path: string, message: string): string {
  if (!path) return message;
  const label = fieldLabel(path);
  return /^[A-Z]/.test(message) ? `${label}: ${message}` : `${label} ${message}`;
}

/** A field's name as a person reads it, in English: 'Loaded active balance', 'Ordered items #1 qty'. */
export function fieldLabel(path: string): string {
  const words = path
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? `#${Number(part) + 1}` : (FIELD_LABELS[part] ?? part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase())))
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Route ids are UUIDs; anything else cannot exist, so it is a 404, not a 500. */
export function parseId(value: unknown, what: string): string {
  const result = idParam.safeParse(value);
  if (!result.success) throw new UserError(404, `${what} not found`);
  return result.data.toLowerCase();
}
