import { Router } from 'express';
import { jobs } from '@shop/core';
import { audited } from '../../middleware/audit.ts';
import { readSweeperStatus } from '@shop/core/deposit-sweeper/sweeper-status';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from '../../middleware/auth.ts';
import { byCreatedAt, pageQuery, sendPage } from '../../middleware/paging.ts';
import { depositsSummary, sweepsJson, sweepsPage } from './service.ts';

/** The sweeper's state, or null when it cannot be read (the rest of the summary still answers). */
export async function sweeperStatusOrNull(deps: Pick<AppDeps, 'redis' | 'config' | 'logger'>) {
  try {
    return await readSweeperStatus(deps.redis, deps.config);
  } catch (err) {
    deps.logger.warn({ err, msg: "could not read the deposit sweeper's status" });
    return null;
  }
}

/** Admins: the deposit addresses (ETH not yet swept, sweeps and their gas, the sweeper's state, the factory's check) and the sweeps. */
export function adminDepositRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin);

  router.get('/', async (_req, res) => {
    const [answer, sweeper] = await Promise.all([deps.prices.answerOrNull().catch(() => null), sweeperStatusOrNull(deps)]);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await depositsSummary(deps.db, answer, sweeper, deps.depositFactory.verdict()));
  });

  // 'Sweep now': one run of the sweeper, under its own rules; its status says what it did.
  router.post('/sweep', async (req, res) => {
    const queued = await jobs.sweepDeposits(deps.queues);
    if (queued) await audited(req, deps.db, { action: 'deposits.sweep' });
    res.status(202).json({ message: queued ? 'The sweeper will run now' : 'A sweeper run is already queued', queued });
  });

  router.get('/sweeps', async (req, res) => {
    const page = pageQuery(req);
    const rows = await sweepsPage(deps.db, page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => sweepsJson(deps.db, shown));
  });
  return router;
}
