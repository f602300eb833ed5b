import { z } from 'zod';
import { intInRange, isoTime, money, usdAmount } from './common.ts';

/** An image reference: a path under /uploads or /images, or an http(s) URL. */
export const imageRef = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(500, 'is too long')
  .refine((v) => /^\/(uploads|images)\/[\w.-]+$/.test(v) || /^https?:\/\/\S+$/.test(v), 'must be an uploaded image path or an http(s) URL');

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
  durationDays: intInRange(1, 3650).optional(),
});

export const productJson = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string(),
  description: z.string(),
  price: money,
  rating: z.number(),
  numReviews: z.number().int(),
  countInStock: z.number().int(),
  dailyCredit: money,
  durationDays: z.number().int(),
  /** When it went on sale; null for a draft (only admins see drafts: the storefront lists published packages). */
  publishedAt: isoTime.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type ProductJson = z.infer<typeof productJson>;

/** An admin puts a package on sale or takes it off (POST /api/admin/products/:id/publish). */
export const publishProductBody = z.object({ published: z.boolean({ message: 'must be true or false' }) });

export const uploadResult = z.object({ message: z.string(), image: z.string() });
export type UploadResult = z.infer<typeof uploadResult>;
