import { z } from 'zod';
import { isoTime, money } from './json-parts.ts';

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
  /**
   * An admin's edit or publish that waits for a second admin (Admin > Approvals): the package pays more over its term
   * than its price allows (PACKAGE_CREDIT_MULTIPLE). Absent otherwise.
   */
  pendingApproval: z.object({ _id: z.string() }).optional(),
  /**
   * The admin's list only: publishing this draft would wait for a second admin (it pays more over its term than
   * its price times the shop's PACKAGE_CREDIT_MULTIPLE), so the list asks for a reason first. Absent elsewhere.
   */
  publishWaits: z.boolean().optional(),
});
export type ProductJson = z.infer<typeof productJson>;
export const uploadResult = z.object({ message: z.string(), image: z.string() });
export type UploadResult = z.infer<typeof uploadResult>;
