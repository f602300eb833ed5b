/** An error the user caused or can act on: its message is shown to them as is. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Not authorized, please sign in') => new HttpError(401, message);
export const forbidden = (message = 'Not allowed') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const unavailable = (message = 'Service temporarily unavailable, please try again') =>
  new HttpError(503, message);
