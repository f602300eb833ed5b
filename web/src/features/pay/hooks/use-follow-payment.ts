import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import type { OrderJson } from '@shop/core/contract';
import { clearCart } from '@/stores/cart-store';

/** The hash to show on the success page: the one sent from here, else the last counted transfer. */
export function paidTxHash(order: OrderJson, sentHash: string | undefined): string | undefined {
  if (sentHash) return sentHash;
  const counted = (order.payments ?? []).filter((p) => p.status === 'COUNTED' || p.status === 'LATE');
  return counted.at(-1)?.txHash;
}

/**
 * SPEC.md section 4: once the worker has marked the order paid, the cart is cleared and
 * the buyer goes to /order/{id}/purchased?tx={hash}. Only when the order turns paid while
 * this page is open: an order that was paid already is simply shown as paid.
 */
export function useFollowPayment(order: OrderJson | undefined, sentHash: string | undefined): void {
  const navigate = useNavigate();
  const sawUnpaid = useRef(false);

  useEffect(() => {
    if (!order) return;
    if (!order.isPaid) {
      sawUnpaid.current = true;
      return;
    }
    if (!sawUnpaid.current) return;
    const hash = paidTxHash(order, sentHash);
    if (!hash) return;
    clearCart();
    navigate(`/order/${order._id}/purchased?tx=${encodeURIComponent(hash)}`, { replace: true });
  }, [order, sentHash, navigate]);
}
