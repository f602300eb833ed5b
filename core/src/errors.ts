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
