import { z } from 'zod';
import { heldChangeReason } from './approvals.ts';
import { intInRange, usdAmount } from './common.ts';

/** An image reference: a path under /uploads or /images, or an http(s) URL. */
export const imageRef = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(500, 'is too long')
  .refine((v) => /^\/(uploads|images)\/[\w.-]+$/.test(v) || /^https?:\/\/\S+$/.test(v), 'must be an uploaded image path or an http(s) URL');

/** How long a paid package runs, in whole days: the api's bounds, and the admin form's. */
export const PACKAGE_TERM_DAYS = { min: 1, max: 3650 } as const;
export const packageTermDays = intInRange(PACKAGE_TERM_DAYS.min, PACKAGE_TERM_DAYS.max);

export const updateProductBody = z.object({
  // Sent by the web client for convenience; the id in the URL is the one that counts.
  productId: z.string().max(100, 'is too long').optional(),
  name: z.string().trim().min(1, 'is required').max(200, 'is too long (200 characters at most)'),
  price: usdAmount,
  image: imageRef,
  dailyCredit: usdAmount,
  description: z.string().trim().max(5000, 'is too long (5000 characters at most)'),
  countInStock: intInRange(0, 1_000_000),
  // The count the form showed: stock that orders took or gave back since is not overwritten (409).
  loadedCountInStock: intInRange(0, 1_000_000),
  durationDays: packageTermDays.optional(),
  approvalReason: heldChangeReason,
});

/** An admin puts a package on sale or takes it off (POST /api/admin/products/:id/publish). */
export const publishProductBody = z.object({ published: z.boolean({ message: 'must be true or false' }), approvalReason: heldChangeReason });

