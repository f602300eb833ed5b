/** Sweeping the orders' deposit addresses on to the receiving address (docs/decisions.md, "A deposit address per order"). */
export { runDepositSweeper, type SweeperDeps, type SweepRun } from './sweeper.ts';
export { readSweeperStatus, sweepingOffReason, type SweeperState, type SweeperStatus } from './sweeper-status.ts';
export { recoverDepositToken, type TokenRecovery } from './sweeper-token-recovery.ts';
export { gasSpent } from './sweeper-budget.ts';
export { recordUnseenDeposits, UNSEEN_FLOOR_WEI, waitsForUnseen } from './unseen-deposits.ts';
