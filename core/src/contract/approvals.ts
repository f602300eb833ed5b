import { z } from 'zod';
import { idParam } from './common.ts';

/** POST /api/admin/approvals: ask a second admin to approve paying a cashout or a refund. */
export const askApprovalBody = z.object({ kind: z.enum(['cashout', 'refund']), id: idParam });

export type { ApprovalJson, ApprovalStatus, PayoutApprovalJson } from './approvals-json.ts';
