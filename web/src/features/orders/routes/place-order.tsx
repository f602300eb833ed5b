import { useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { OrderLines, type OrderLine } from '@/components/order-lines';
import { getErrorMessage } from '@/lib/api-client';
import { useCart } from '@/stores/cart-store';
import { useCreateOrder } from '../api/create-order';
import { PlaceOrderSummary } from '../components/place-order-summary';
import { t } from '@/i18n/i18n';

export function PlaceOrderPage() {
  const cart = useCart();
  const navigate = useNavigate();
  const createOrder = useCreateOrder();

  const lines: OrderLine[] = cart.cartItems.map((item) => ({
    key: item._id,
    productId: item._id,
    name: item.name,
    image: item.image,
    price: item.price,
    qty: item.qty,
  }));

  const placeOrder = () => {
    createOrder.mutate(
      { orderedItems: cart.cartItems, itemsPrice: cart.itemsPrice, totalPrice: cart.totalPrice },
      {
        onSuccess: (order) => navigate(`/order/${order._id}`),
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  };

  return (
    <section className="grid items-start gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <div className="flex flex-col gap-4">
        <h1 className="text-2xl font-bold tracking-tight">{t('orders.place.title')}</h1>
        {lines.length === 0 ? (
          <p className="rounded-xl border border-dashed px-6 py-10 text-center text-lg font-medium">{t('orders.place.empty')}</p>
        ) : (
          <OrderLines lines={lines} label={t('orders.place.items')} />
        )}
      </div>
      <PlaceOrderSummary
        totalPrice={cart.totalPrice}
        error={createOrder.isError ? getErrorMessage(createOrder.error) : undefined}
        isPending={createOrder.isPending}
        onPlaceOrder={placeOrder}
      />
    </section>
  );
}
