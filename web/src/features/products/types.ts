import type { ProductJson } from '@shop/core/contract';

/** A package as the api returns it (DESIGN.md section 4). */
export type Product = ProductJson;

/** The editable fields of a package (PUT /api/products/:id). */
export type ProductInput = {
  productId: string;
  name: string;
  price: number | string;
  image: string;
  dailyCredit: number | string;
  description: string;
  countInStock: number | string;
  /** The count the form loaded: stock orders took since is never overwritten (a 409 otherwise). */
  loadedCountInStock: number;
  /** How many days a paid package credits (PACKAGE_TERM_DAYS). */
  durationDays: number | string;
  /** Why, for a second admin when the edit waits for one (a package that pays more). */
  approvalReason?: string;
};
