/**
 * The one way the web app calls the api: same origin, session cookie included,
 * JSON in and out. Every failure becomes an ApiError whose `message` is what the UI
 * shows: the server's `message` when it sent one, otherwise the error's own text.
 */

import { activeLocale, t } from '@/i18n/i18n';

/** Failures that never produced an HTTP response (or produced an unreadable one). */
export type ApiErrorKind = 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status, or the kind of failure when there was no usable response. */
  readonly status: number | ApiErrorKind;
  /** The parsed response body (for HTTP errors), e.g. `{ message, errors }`. */
  readonly data: unknown;

  constructor(status: number | ApiErrorKind, message: string, data?: unknown, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
    this.data = data;
  }

  get isHttpError(): boolean {
    return typeof this.status === 'number';
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Text to show for any thrown value. */
export function getErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return t('api.somethingWrong');
}

/** The `message` the server sent with an error response, if it sent one. */
export function getServerMessage(error: unknown): string | undefined {
  return isApiError(error) && error.isHttpError ? serverMessage(error.data) : undefined;
}

type QueryValue = string | number | boolean | null | undefined;

let unauthorizedHandler: ((path: string) => void) | undefined;

/**
 * Registers what happens when any call comes back 401 (the session cookie expired or
 * was revoked): the app forgets the stored user so the guards send it to /login.
 */
export function onUnauthorized(handler: ((path: string) => void) | undefined): void {
  unauthorizedHandler = handler;
}

let stepUpHandler: (() => Promise<boolean>) | undefined;

/**
 * Registers what happens when a call comes back 403 `{ stepUpRequired: true }` (a money
 * action needs a second factor given in the last minutes): the handler asks for a code
 * and resolves true once the server took it, and the call is sent again, once.
 */
export function onStepUp(handler: (() => Promise<boolean>) | undefined): void {
  stepUpHandler = handler;
  if (handler) for (const take of stepUpWaiters.splice(0)) take(handler);
}

const stepUpWaiters: ((handler: () => Promise<boolean>) => void)[] = [];

/** The next handler registered with onStepUp (the dialog, once its code is in). */
export function nextStepUpHandler(): Promise<() => Promise<boolean>> {
  return new Promise((resolve) => stepUpWaiters.push(resolve));
}

export type RequestOptions = {
  /** A plain object is sent as JSON; FormData (uploads) is sent as multipart. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Gives up after this many milliseconds with a TIMEOUT_ERROR. */
  timeoutMs?: number;
};

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const qs = params.toString();
  if (!qs) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${qs}`;
}

function serverMessage(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'message' in data) {
    const { message } = data as { message: unknown };
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return undefined;
}

async function readBody(response: Response): Promise<{ text: string; json: unknown; isJson: boolean }> {
  const text = await response.text();
  if (text === '') return { text, json: undefined, isJson: false };
  try {
    return { text, json: JSON.parse(text) as unknown, isJson: true };
  } catch {
    return { text, json: undefined, isJson: false };
  }
}

function combineSignals(signal?: AbortSignal, timeoutMs?: number): AbortSignal | undefined {
  const signals: AbortSignal[] = [];
  if (signal) signals.push(signal);
  if (timeoutMs !== undefined) signals.push(AbortSignal.timeout(timeoutMs));
  if (signals.length <= 1) return signals[0];
  return AbortSignal.any(signals);
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  return (await exchange<T>(method, path, options)).data;
}

/** One page of a list and the path of the next one (the `Link: <...>; rel="next"` header), if any. */
export type Page<T> = { items: T[]; next: string | null };

/** The target of the rel="next" link in a Link header (RFC 8288), or null. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (m && /(^|;)\s*rel\s*=\s*"?next"?\s*(;|$)/i.test(m[2]!)) return m[1]!;
  }
  return null;
}

async function exchange<T>(method: string, path: string, options: RequestOptions, retried = false): Promise<{ data: T; response: Response }> {
  const { body, query, headers = {}, signal, timeoutMs } = options;
  const init: RequestInit = {
    method,
    credentials: 'include',
    headers: { Accept: 'application/json', ...headers },
  };
  const combined = combineSignals(signal, timeoutMs);
  if (combined) init.signal = combined;
  if (body !== undefined) {
    if (body instanceof FormData || body instanceof Blob || typeof body === 'string') {
      init.body = body;
    } else {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      throw new ApiError('TIMEOUT_ERROR', t('api.timedOut'), undefined, { cause: error });
    }
    // A caller's own abort is not an API failure; let TanStack Query see it as-is.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    // The browser's own text ('Failed to fetch', 'NetworkError when...') is in its language, not the page's.
    throw new ApiError('FETCH_ERROR', t('api.fetchFailed'), undefined, { cause: error });
  }

  const { text, json, isJson } = await readBody(response);
  if (!response.ok) {
    if (response.status === 401) unauthorizedHandler?.(path);
    const data = isJson ? json : text || undefined;
    if (response.status === 403 && stepUpHandler && !retried && (json as { stepUpRequired?: unknown } | undefined)?.stepUpRequired === true) {
      if (await stepUpHandler()) return exchange<T>(method, path, options, true);
    }
    // HTTP's reason phrase ('Bad Gateway') is English: shown only to an English page.
    const fallback = (activeLocale() === 'en' && response.statusText) || t('api.requestFailed', { status: response.status });
    throw new ApiError(response.status, serverMessage(json) ?? fallback, data);
  }
  if (text !== '' && !isJson) {
    throw new ApiError('PARSING_ERROR', t('api.notJson'), text);

  }
  return { data: json as T, response };
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  /** A paged list: `path` is the first page (with `query`) or a `next` the previous page named. */
  page: async <T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<Page<T>> => {
    const { data, response } = await exchange<T[]>('GET', path, options ?? {});
    return { items: data, next: nextLink(response.headers.get('Link')) };
  },
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
