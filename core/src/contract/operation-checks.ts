import type { z } from 'zod';
import { apiErrorJson, errorStatuses, OPERATIONS, type Operation } from './operations.ts';

// Checks of what the api answers against the operations list (and so against the
// published document): the api's own walk over its router (api/src/openapi) and the
// browser journeys (e2e/helpers.ts) fail on any answer these find wrong.

const patterns = OPERATIONS.map((op) => ({ op, re: new RegExp(`^${op.path.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`) }));

/** The operation a request is answered by (`GET /api/orders/0b0e...`), the query string ignored. */
export function findOperation(method: string, url: string): Operation | undefined {
  const path = url.split('?')[0]!;
  const m = method.toUpperCase();
  // A literal path wins over a pattern (`/api/users/profile` over `/api/users/:id`).
  const hits = patterns.filter((p) => p.op.method === m && p.re.test(path));
  return hits.find((p) => !p.op.path.includes(':'))?.op ?? hits[0]?.op;
}

/** The schema of the JSON an operation answers with this status, if it has one. */
export function answerSchema(op: Operation, status: number): z.ZodType | undefined {
  const declared = op.answers.find((a) => a.status === status);
  if (declared) return declared.schema;
  return status >= 400 ? apiErrorJson : undefined;
}

/**
 * What is wrong with one answer of the api, measured against this list (and so against
 * the published document), or null: the operation exists, the status is one it declares,
 * and a JSON body matches the declared schema with no field the schema does not name.
 * Paths outside /api, and the reference page, are not api answers.
 */
export function answerProblem(method: string, url: string, status: number, body: unknown, contentType = 'application/json'): string | null {
  const path = new URL(url, 'http://x').pathname;
  if (!path.startsWith('/api/') || path === '/api/docs' || path.startsWith('/api/docs/')) return null;
  const op = findOperation(method, path);
  const what = `${method} ${path} answered ${status}`;
  // The router's own 404 for a path no route answers.
  if (!op) return status === 404 ? null : `${what}: no such operation in the API document`;
  const declared = op.answers.some((a) => a.status === status) || (status >= 400 && errorStatuses(op).includes(status));
  if (!declared) return `${what}: the document declares ${[...op.answers.map((a) => a.status), ...errorStatuses(op)].join(', ')} for ${op.method} ${op.path}`;
  const schema = answerSchema(op, status);
  if (!schema) return null;
  if (!contentType.includes('json')) return `${what}: expected JSON, got ${contentType || 'no content type'}`;
  const problem = bodyProblem(schema, body);
  return problem && `${what} (${op.method} ${op.path}): ${problem}`;
}

/** What is wrong with a JSON body measured against a schema of the document, or null: a mismatch, or a field the schema does not name. */
export function bodyProblem(schema: z.ZodType, body: unknown): string | null {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
    return `the body does not match the document: ${issues.join('; ')}`;
  }
  const extra = undocumentedFields(body, result.data, '');
  return extra.length > 0 ? `fields the document does not name: ${extra.slice(0, 10).join(', ')}` : null;
}

/** Fields of `sent` that parsing dropped (zod objects strip the fields they do not name). */
function undocumentedFields(sent: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) return sent.flatMap((v, i) => undocumentedFields(v, parsed[i], `${path}[${i}]`));
  if (!sent || !parsed || typeof sent !== 'object' || typeof parsed !== 'object') return [];
  return Object.entries(sent).flatMap(([k, v]) => (k in parsed ? undocumentedFields(v, (parsed as Record<string, unknown>)[k], `${path}.${k}`) : [`${path}.${k}`.slice(1)]));
}
