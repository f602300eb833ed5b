import type { Request, Response } from 'express';
import { stringify } from 'csv-stringify/sync';

/**
 * CSV as RFC 4180 writes it, by csv-stringify (quoting a field that holds a comma, a
 * quote, a carriage return or a line feed, its quotes doubled; lines end in CRLF). Ours
 * is only the formula guard on typed text, which csv-stringify's `escape_formulas` would
 * apply to every string, signed amounts included.
 */
export type Cell = string | number | bigint | boolean | null | undefined;

/** Text a person or a client typed (names, e-mails, reasons): a spreadsheet must not run it as a formula. */
export type Text = { text: string | null | undefined };

export const text = (value: string | null | undefined): Text => ({ text: value });

// OWASP's CSV injection advice: a cell starting with one of these is a formula in Excel,
// LibreOffice and Google Sheets; a leading apostrophe makes it text.
const FORMULA_START = /^[=+\-@\t\r]/;

function plain(value: Cell | Text): string {
  if (value !== null && typeof value === 'object') {
    const s = value.text ?? '';
    return FORMULA_START.test(s) ? `'${s}` : s;
  }
  return value === null || value === undefined ? '' : String(value);
}

/** One CSV line (CRLF-terminated) of these cells. */
export const csvLine = (cells: (Cell | Text)[]): string => stringify([cells.map(plain)], { record_delimiter: 'windows' });

/** One field as it stands in a line. */
export const csvField = (value: Cell | Text): string => csvLine([value]).slice(0, -2);

/**
 * Streams a CSV download a keyset page at a time: `nextPage` is called with the last row
 * of the page before (null for the first) until it returns fewer rows than `pageSize`.
 * Memory holds one page; a slow client holds the next read back (the write's
 * backpressure), and a client that went away stops it.
 *
 * Once the first byte is sent a failure can no longer be a JSON error: the response is
 * destroyed, so the download fails instead of ending as a file that looks complete.
 */
export async function streamCsv<Row>(
  req: Request,
  res: Response,
  opts: {
    filename: string;
    header: string[];
    pageSize: number;
    nextPage: (after: Row | null) => Promise<Row[]>;
    toLines: (rows: Row[]) => Promise<(Cell | Text)[][]> | (Cell | Text)[][];
  },
): Promise<number> {
  // The first page is read before the headers go: a failure there is still a clean 500.
  let rows = await opts.nextPage(null);
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${opts.filename}"`);
  res.setHeader('Cache-Control', 'no-store');
  // One listener each for the whole download (the compression middleware hands them to
  // its gzip stream, which would keep one per wait otherwise).
  let gone = false;
  let waiting: (() => void) | null = null;
  const wake = () => {
    waiting?.();
    waiting = null;
  };
  res.on('drain', wake);
  res.on('close', () => {
    gone = true;
    wake();
  });
  const write = (chunk: string) =>
    res.write(chunk) || gone
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          waiting = resolve;
        });
  let count = 0;
  try {
    await write(csvLine(opts.header));
    for (;;) {
      const lines = await opts.toLines(rows);
      if (lines.length) await write(lines.map(csvLine).join(''));
      count += rows.length;
      if (gone || rows.length < opts.pageSize) break;
      rows = await opts.nextPage(rows[rows.length - 1]!);
    }
    if (!gone) res.end();
  } catch (err) {
    req.log?.error({ err, filename: opts.filename, rows_sent: count }, 'csv export failed mid-stream');
    res.destroy(err instanceof Error ? err : new Error(String(err)));
  }
  return count;
}
