import { useState } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { AppLayout } from './layout/app-layout';
import { RequireAdmin, RequireAuth } from './route-guards';
import { NotFoundPage } from './routes/not-found';
import { RouteError } from './routes/route-error';
import { ServerPage } from './routes/server-page';

/** Every screen is its own chunk, so the home page loads only what it shows. */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: AppLayout,
    HydrateFallback: PageSpinner,
    ErrorBoundary: RouteError,
    children: [
      {
        // Page errors render inside the layout so the header and footer stay.
        ErrorBoundary: RouteError,
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import('@/features/products/routes/home')).HomePage }),
          },
          {
            path: 'product/:id',
            lazy: async () => ({ Component: (await import('@/features/products/routes/product')).ProductPage }),
          },
          {
            path: 'cart',
            lazy: async () => ({ Component: (await import('@/features/cart/routes/cart')).CartPage }),
          },
          {
            path: 'login',
            lazy: async () => ({ Component: (await import('@/features/auth/routes/login')).LoginPage }),
          },
          {
            path: 'register',
            lazy: async () => ({ Component: (await import('@/features/auth/routes/register')).RegisterPage }),
          },
          {
            Component: RequireAuth,
            children: [
              {
                path: 'placeorder',
                lazy: async () => ({ Component: (await import('@/features/orders/routes/place-order')).PlaceOrderPage }),
              },
              {
                // The only route that loads wallet code (wagmi, viem).
                path: 'order/:id',
                lazy: async () => ({ Component: (await import('@/features/pay/routes/pay')).PayRoute }),
              },
              {
                path: 'order/:id/purchased',
                lazy: async () => ({ Component: (await import('@/features/orders/routes/purchased')).PurchasedPage }),
              },
              {
                path: 'profile',
                lazy: async () => ({ Component: (await import('@/features/users/routes/profile')).ProfilePage }),
              },
              {
                path: 'profile/cashout',
                lazy: async () => ({ Component: (await import('@/features/cashout/routes/cashout')).CashoutPage }),
              },
            ],
          },
          // Served by the api, not by this app (the BullMQ dashboard); the server checks
          // admin rights. Reached client-side only by a redirect after signing in.
          { path: 'admin/queues/*', Component: ServerPage },
          {
            path: 'admin',
            Component: RequireAdmin,
            children: [
              {
                path: 'orderlist',
                lazy: async () => ({
                  Component: (await import('@/features/orders/routes/order-list')).OrderListPage,
                }),
              },
              {
                path: 'productlist',
                lazy: async () => ({
                  Component: (await import('@/features/products/routes/product-list')).ProductListPage,
                }),
              },
              {
                path: 'products/:id/edit',
                lazy: async () => ({
                  Component: (await import('@/features/products/routes/product-edit')).ProductEditPage,
                }),
              },
              {
                path: 'userlist',
                lazy: async () => ({ Component: (await import('@/features/users/routes/user-list')).UserListPage }),
              },
              {
                path: 'user/:id/edit',
                lazy: async () => ({ Component: (await import('@/features/users/routes/user-edit')).UserEditPage }),
              },
              {
                path: 'cashouts',
                lazy: async () => ({
                  Component: (await import('@/features/admin-payments/routes/cashout-list')).CashoutListPage,
                }),
              },
              {
                path: 'payments',
                lazy: async () => ({
                  Component: (await import('@/features/admin-payments/routes/payment-list')).PaymentListPage,
                }),
              },
              {
                path: 'reconciliation',
                lazy: async () => ({
                  Component: (await import('@/features/reconciliation/routes/reconciliation')).ReconciliationPage,
                }),
              },
              {
                path: 'webhooks',
                lazy: async () => ({
                  Component: (await import('@/features/admin-webhooks/routes/webhooks')).WebhooksPage,
                }),
              },
            ],
          },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
];

export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
