// Local until the shared contract (@shop/core/contract) provides the product schema.
export type Product = {
  _id: string;
  name: string;
  image: string;
  description: string;
  price: number;
  rating: number;
  numReviews: number;
  countInStock: number;
  dailyCredit: number;
  durationDays?: number;
};
