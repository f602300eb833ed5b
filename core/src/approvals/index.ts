/**
 * Two admins for large money moves. A balance increase an admin makes of more than
 * APPROVAL_THRESHOLD_USD (counting the direct increases they made in the last 24 hours,
 * so the amount cannot be split into small edits) is held, not applied, until a second
 * admin approves it; a cashout or refund worth more than it cannot be marked paid until
 * a second admin approved paying it (an admin asks before sending the ETH; a large
 * refund asks when it is created). Nobody decides their own request, nor one whose money
 * goes to them. Every request and decision is in the audit log, in its transaction.
 *
 * Cashouts are also counted per admin who pays them and per package their money came
 * from, over 24 hours (windows.ts).
 * Publishing a package that pays more over its term than it costs (PACKAGE_CREDIT_MULTIPLE
 * times its price), or changing one on sale so that it gives more, waits the same way.
 *
 * worth.ts: what a payout is worth and whether that is large; payouts.ts: approvals of
 * payouts; windows.ts: cashouts counted per admin and per package; holds.ts: balance increases and admin grants held and applied; packages.ts:
 * packages that create money, held and applied; decide.ts: the second admin's decision;
 * requests.ts: the approval row and asking for one.
 */
export { decideApproval, NOT_YOUR_REQUEST, OWN_MONEY_APPROVAL, OWN_REQUEST_REJECTION, SELF_APPROVAL, type ApprovalDecision } from './decide.ts';
export { grantAdminFromShell, holdAdminGrant, holdLargeIncrease } from './holds.ts';
export { creditOverTerm, holdPackageEdit, holdPackagePublish, PACKAGE_CHANGED, packageMints, packageStock, type PackageChange, type PackageTerms } from './packages.ts';
export { askPayoutApproval, askRefundApprovals, payoutApprovalStates, requirePayoutApproval, voidPayoutApprovals } from './payouts.ts';
export { APPROVAL_NEEDED_DETAIL, APPROVAL_WINDOW_MS, type AdminAudit, type ApprovalRow } from './requests.ts';
export { cashoutsCounted, payoutNeedsApproval, payoutWorth, refundWorth, type PayoutWorth } from './worth.ts';
export { cashoutShares, cashoutsOverWindows, type CashoutShare } from './windows.ts';
