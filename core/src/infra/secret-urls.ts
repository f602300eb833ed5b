/**
 * URLs that carry credentials or API keys (the node's, the database's, Redis's, SMTP's):
 * how messages and logs show them. Infrastructure, for the logger and the chain client
 * alike.
 */

/**
 * A node's URL as messages and logs may show it: its scheme and host. Providers put the
 * API key in the path (`/v3/<key>`), the query or the credentials, so none of those is
 * shown ('…' says a path was there).
 */
export function redactNodeUrl(url: string): string {
  try {
    const u = new URL(url);
    const hidden = (u.pathname !== '/' && u.pathname !== '') || u.search !== '' || u.hash !== '';
    return `${u.protocol}//${u.host}${hidden ? '/…' : ''}`;
  } catch {
    return '[node URL]';
  }
}

/** Every way `url` may be written in a message: as given, normalised, without its credentials; longest first. */
function spellings(url: string): string[] {
  const out = new Set([url]);
  try {
    const u = new URL(url);
    out.add(u.toString());
    u.username = '';
    u.password = '';
    out.add(u.toString());
    out.add(u.toString().replace(/\/$/, ''));
  } catch {
    // not a URL: only as given
  }
  return [...out].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}

/** `text` with every spelling of the URLs replaced by their redacted form. */
export function redactUrlsIn(text: string, urls: readonly string[]): string {
  let out = text;
  for (const url of urls) for (const spelled of spellings(url)) out = out.split(spelled).join(redactNodeUrl(url));
  return out;
}

/**
 * Rewrites, in place, every string an error (and its causes) carries so that none names
 * the URLs: viem writes the request URL into `message`, `url`, `details` and
 * `metaMessages`. In place, so its class and fields (what isNodeFailure and the retry
 * logic read) stay as they were.
 */
export function scrubUrls<T>(err: T, urls: readonly string[]): T {
  const seen = new Set<unknown>();
  const walk = (value: unknown, depth: number) => {
    if (depth > 8 || value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    const record = value as Record<string, unknown>;
    for (const key of Object.getOwnPropertyNames(value)) {
      const field = record[key];
      try {
        if (typeof field === 'string') record[key] = redactUrlsIn(field, urls);
        else if (Array.isArray(field)) record[key] = field.map((v: unknown) => (typeof v === 'string' ? redactUrlsIn(v, urls) : (walk(v, depth + 1), v)));
        else walk(field, depth + 1);
      } catch {
        // a read-only field: left as it is
      }
    }
  };
  walk(err, 0);
  return err;
}
