import type { Prisma } from '../db.ts';

/** Gives an order's reserved stock back, once (the flag flips in the same statement). */
export async function releaseStock(tx: Prisma.TransactionClient, orderId: string): Promise<boolean> {
  const flipped = await tx.order.updateMany({ where: { id: orderId, stockReserved: true }, data: { stockReserved: false } });
  if (flipped.count !== 1) return false;
  const items = await tx.orderItem.findMany({ where: { orderId }, select: { productId: true, qty: true } });
  for (const item of items) {
    await tx.$executeRaw`UPDATE "Product" SET "countInStock" = "countInStock" + ${item.qty} WHERE "id" = ${item.productId}::uuid`;
  }
  return true;
}
