import { z } from 'zod';
import { idParam, messageJson } from './index.ts';

/** The parts an operation of the api is described with (core/src/contract/operations.ts lists them). */

/** public: anyone; user: a signed-in user (401 otherwise); admin: a signed-in admin (403 for others). */
export type Access = 'public' | 'user' | 'admin';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type OperationAnswer = {
  status: number;
  description: string;
  /** The JSON body; absent for a body that is not JSON (`contentType`). */
  schema?: z.ZodType;
  contentType?: string;
  /** A page of a list: `limit` and `cursor` in the query, the next page in a Link header. */
  paged?: boolean;
};

export type Operation = {
  method: HttpMethod;
  /** Express's pattern: `/api/orders/:id`. */
  path: string;
  tag: string;
  summary: string;
  /** What a reader must know beyond the summary, where the api differs from DESIGN.md on purpose included. */
  description?: string;
  access: Access;
  /** Needs a second factor given in the last 10 minutes (403 with `stepUpRequired` otherwise); 'when' says when. */
  stepUp?: true | string;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A multipart/form-data body instead of JSON (its fields). */
  multipart?: Record<string, string>;
  answers: OperationAnswer[];
  /** Error statuses beyond those every operation of its kind has (400, 401, 403, 404: see errorStatuses). */
  errors?: number[];
};

/** The error body of every status >= 400: a message a person reads; validation errors name each field in `errors`. */
export const apiErrorJson = z.looseObject({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** 403 from an action that needs a fresh second factor (POST /api/users/2fa/step-up, then retry). */
  stepUpRequired: z.boolean().optional(),
  /** 401 from sign-in: the account has two-factor sign-in; send `code` or `passkey` too. */
  twoFactorRequired: z.boolean().optional(),
  /** 403 from an admin page while the admin has not turned on two-factor sign-in. */
  twoFactorEnrolment: z.boolean().optional(),
});

export const ok = (schema: z.ZodType, description = 'OK', status = 200): OperationAnswer => ({ status, description, schema });
export const page = (item: z.ZodType, description: string): OperationAnswer => ({ status: 200, description, schema: z.array(item), paged: true });
export const message = (description: string, status = 200): OperationAnswer => ({ status, description, schema: messageJson });

export const PAGED = 'Paged: `limit` and `cursor`; the next page is in the `Link: <...>; rel="next"` header, absent on the last page.';


/** The path parameters of an Express pattern (`/api/orders/:id` -> ['id']). */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

/** The error statuses an operation answers: its own, and those of its kind. */
export function errorStatuses(op: Operation): number[] {
  const statuses = new Set<number>(op.errors ?? []);
  if (op.body || op.query || op.multipart || pathParams(op.path).length > 0) statuses.add(400);
  if (op.access !== 'public') statuses.add(401);
  if (op.access === 'admin' || op.stepUp) statuses.add(403);
  if (pathParams(op.path).length > 0) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

/** The path schema of an operation: every parameter is an id (a UUID; anything else is a 404). */
export function pathSchema(op: Operation): z.ZodObject | undefined {
  const names = pathParams(op.path);
  return names.length ? z.object(Object.fromEntries(names.map((n) => [n, idParam]))) : undefined;
}
