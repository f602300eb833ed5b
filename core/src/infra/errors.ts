/**
 * The one error type for "the user did something the shop refuses": its message is
 * shown to them as is, with the HTTP status the api answers (the api's error handler
 * maps it, once). Everything else is a fault: logged, and a 500 without details.
 */
export type UserErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503;

export class UserError extends Error {
  override name = 'UserError';
  constructor(
    readonly status: UserErrorStatus,
    message: string,
    readonly errors?: { path: string; message: string }[],
    /** Flags and data the client acts on, sent beside the message (`{ twoFactorRequired: true }`, a passkey challenge). */
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new UserError(400, message);
export const unauthorized = (message = 'Not authorized, please sign in') => new UserError(401, message);
export const forbidden = (message = 'Not allowed') => new UserError(403, message);
export const notFound = (message = 'Not found') => new UserError(404, message);
export const conflict = (message: string) => new UserError(409, message);
export const unavailable = (message = 'Service temporarily unavailable, please try again') => new UserError(503, message);

/**
 * True for errors that mean "a dependency is unreachable right now" (answered with 503),
 * not "this request is wrong": Prisma's connection and pool/transaction-timeout codes, Postgres connection-class
 * SQLSTATEs (08xxx, 57P0x, 53300, and 55000 "not accepting connections") found in the
 * driver adapter's error, socket errors, and ioredis' connection errors.
 */
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', '53300', '57P01', '57P02', '57P03']);
const unavailableMessage =
  /Connection is closed|connect ECONNREFUSED|Connection terminated|terminating connection|not currently accepting connections|timeout exceeded when trying to connect|Can't reach database|Stream isn't writeable|max retries per request|Client has encountered a connection error|Server has closed the connection/i;

export function isUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0 && seen.size < 20) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const o = e as { code?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    for (const code of [o.code, o.originalCode]) {
      if (typeof code === 'string' && (unavailableCodes.has(code) || code.startsWith('08'))) return true;
    }
    if (typeof o.message === 'string' && unavailableMessage.test(o.message)) return true;
    queue.push(o.cause, o.meta?.driverAdapterError);
  }
  return false;
}
