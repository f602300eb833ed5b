import { Router } from 'express';
import { EXPORT_FILES, type ExportFile } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireStepUp } from '../../middleware/auth.ts';
import { audited } from '../../middleware/audit.ts';
import { streamCsv } from './csv.ts';
import { EXPORT_PAGE_SIZE, EXPORTS } from './export.ts';
import { dayRange, overview, waitingFor } from './service.ts';

/** Admins: the overview of a range of UTC days (`from`, `to`: YYYY-MM-DD; the last 30 days by default). */
export function adminOverviewRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin);
  router.get('/', async (req, res) => {
    const range = dayRange(req.query);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await overview(deps.db, range));
  });
  // The Admin menu's counts, asked by every admin page: two bounded counts.
  router.get('/waiting', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await waitingFor(deps.db, req.user!.id));
  });
  return router;
}

/**
 * Admins: the range's orders, payments and ledger as CSV downloads
 * (`/api/admin/export/<file>.csv?from&to`), streamed a page at a time. Each export is
 * written to the audit log (who took which file of which range) before its first row.
 * Every e-mail and ledger line of the shop is in them: they need a second factor given in
 * the last 10 minutes (a stolen session cookie alone exports nothing). `ready` answers 204
 * when this session may download, so the web asks for the factor before the browser
 * follows a download link.
 */
export function adminExportRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin, requireStepUp);
  router.get('/ready', (_req, res) => {
    res.status(204).end();
  });
  for (const file of Object.keys(EXPORT_FILES) as ExportFile[]) {
    router.get(`/${file}.csv`, async (req, res) => {
      const range = dayRange(req.query);
      await audited(req, deps.db, { action: 'report.exported', subject: { type: 'export', id: `${file}.csv` }, after: { file: `${file}.csv`, from: range.from, to: range.to } });
      const spec = EXPORTS[file](deps.db, range);
      await streamCsv(req, res, { filename: `${file}_${range.from}_${range.to}.csv`, pageSize: EXPORT_PAGE_SIZE, ...spec });
    });
  }
  return router;
}
