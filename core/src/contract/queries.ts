import { z } from 'zod';
import { AUDIT_ACTIONS } from './audit.ts';

// The query strings the api's lists read (api/src/middleware/paging.ts parses them with
// these limits). Every value is a string on the wire.

/** Rows on a page when `limit` is not given, and the most one page may ask for. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** `limit` and `cursor`: every list is paged; the next page is named in the `Link: <...>; rel="next"` header. */
export const pageQuery = z.object({
  limit: z
    .string()
    .regex(/^\d{1,4}$/)
    .optional()
    .describe(`Rows on the page, 1 to ${MAX_PAGE_SIZE} (${DEFAULT_PAGE_SIZE} when not given).`),
  cursor: z.string().max(200).optional().describe("Where the page starts: the cursor of the previous page's Link header, as given (opaque)."),
});

const search = (what: string) => z.string().max(100).optional().describe(`Search: ${what} (at most 100 characters).`);
/** A comma-separated list of allowed values: `?status=PAID,LATE`. */
const oneOf = (values: readonly string[], what = 'Only these states') => z.string().optional().describe(`${what}, comma-separated: ${values.join(', ')}.`);
const day = (what: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}/).optional().describe(`${what} (YYYY-MM-DD, UTC).`);

export const searchPageQuery = (what: string) => pageQuery.extend({ q: search(what) });
export const statusPageQuery = (values: readonly string[]) => pageQuery.extend({ status: oneOf(values) });

export const adminOrdersQuery = (statuses: readonly string[]) =>
  pageQuery.extend({
    status: oneOf(statuses),
    from: day('Placed on or after this day'),
    to: day('Placed on or before this day'),
    q: search("the order's reference, id, or the buyer's name or e-mail"),
  });

export const auditQuery = pageQuery.extend({
  actor: search("the actor's id or e-mail"),
  subject: search("the subject's id"),
  action: oneOf(AUDIT_ACTIONS, 'Only these actions'),
});

/** The admin overview and the CSV exports: a range of UTC days, both ends included. */
export const dayRangeQuery = z.object({
  from: day('First day of the range (30 days before `to` when not given)'),
  to: day('Last day of the range (today when not given)'),
});
