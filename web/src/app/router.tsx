import { useState } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { AppLayout, type PageMeta } from './layout/app-layout';
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
            handle: { title: '', description: 'Digital packages with daily credit, paid in ETH from any wallet.' } satisfies PageMeta,
            lazy: async () => ({ Component: (await import('@/features/products/routes/home')).HomePage }),
          },
          {
            path: 'product/:id',
            handle: { title: 'Package', description: "A package's price, daily credit, term and stock; add it to your cart and pay in ETH." } satisfies PageMeta,
            lazy: async () => ({ Component: (await import('@/features/products/routes/product')).ProductPage }),
          },
          {
            path: 'cart',
            handle: { title: 'Cart', description: 'Your cart: review the packages you chose before paying in ETH.' } satisfies PageMeta,
            lazy: async () => ({ Component: (await import('@/features/cart/routes/cart')).CartPage }),
          },
          {
            path: 'login',
            handle: { title: 'Sign in', description: 'Sign in to your ETH Shop account to order and pay.' } satisfies PageMeta,
            lazy: async () => ({ Component: (await import('@/features/auth/routes/login')).LoginPage }),
          },
          {
            path: 'register',
            handle: { title: 'Create an account', description: 'Create an ETH Shop account to order packages and earn referral rewards.' } satisfies PageMeta,
            lazy: async () => ({ Component: (await import('@/features/auth/routes/register')).RegisterPage }),
          },
          {
            Component: RequireAuth,
            children: [
              {
                path: 'placeorder',
            handle: { title: 'Place order', description: 'Review your order before paying in ETH.' } satisfies PageMeta,
                lazy: async () => ({ Component: (await import('@/features/orders/routes/place-order')).PlaceOrderPage }),
              },
              {
                // The only route that loads wallet code (wagmi, viem).
                path: 'order/:id',
            handle: { title: 'Pay for your order', description: 'Pay your order in ETH from your wallet and follow its confirmation.' } satisfies PageMeta,
                lazy: async () => ({ Component: (await import('@/features/pay/routes/pay')).PayRoute }),
              },
              {
                path: 'order/:id/purchased',
            handle: { title: 'Order paid', description: 'Your order and its payment.' } satisfies PageMeta,
                lazy: async () => ({ Component: (await import('@/features/orders/routes/purchased')).PurchasedPage }),
              },
              {
                path: 'profile',
            handle: { title: 'Your profile', description: 'Your account, balances, referral link and orders.' } satisfies PageMeta,
                lazy: async () => ({ Component: (await import('@/features/users/routes/profile')).ProfilePage }),
              },
              {
                path: 'profile/cashout',
            handle: { title: 'Cash out', description: 'Request a cashout of your balance in ETH.' } satisfies PageMeta,
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
            handle: { title: 'Orders', description: 'All orders (admin).' } satisfies PageMeta,
                lazy: async () => ({
                  Component: (await import('@/features/orders/routes/order-list')).OrderListPage,
                }),
              },
              {
                path: 'productlist',
            handle: { title: 'Packages', description: 'All packages (admin).' } satisfies PageMeta,
                lazy: async () => ({
                  Component: (await import('@/features/products/routes/product-list')).ProductListPage,
                }),
              },
              {
                path: 'products/:id/edit',
            handle: { title: 'Edit package', description: 'Edit a package (admin).' } satisfies PageMeta,
                lazy: async () => ({
                  Component: (await import('@/features/products/routes/product-edit')).ProductEditPage,
                }),
              },
              {
                path: 'userlist',
            handle: { title: 'Users', description: 'All users (admin).' } satisfies PageMeta,
                lazy: async () => ({ Component: (await import('@/features/users/routes/user-list')).UserListPage }),
              },
              {
                path: 'user/:id/edit',
            handle: { title: 'Edit user', description: 'Edit a user (admin).' } satisfies PageMeta,
                lazy: async () => ({ Component: (await import('@/features/users/routes/user-edit')).UserEditPage }),
              },
              {
                path: 'cashouts',
            handle: { title: 'Cashouts and refunds', description: 'Payouts waiting to be sent (admin).' } satisfies PageMeta,
                lazy: async () => ({
                  Component: (await import('@/features/admin-payments/routes/cashout-list')).CashoutListPage,
                }),
              },
              {
                path: 'payments',
            handle: { title: 'Payments', description: 'Transfers waiting for an admin (admin).' } satisfies PageMeta,
                lazy: async () => ({
                  Component: (await import('@/features/admin-payments/routes/payment-list')).PaymentListPage,
                }),
              },
              {
                path: 'reconciliation',
            handle: { title: 'Reconciliation', description: 'The books (admin).' } satisfies PageMeta,
                lazy: async () => ({
                  Component: (await import('@/features/reconciliation/routes/reconciliation')).ReconciliationPage,
                }),
              },
              {
                path: 'webhooks',
            handle: { title: 'Webhooks', description: 'Webhook endpoints and deliveries (admin).' } satisfies PageMeta,
                lazy: async () => ({
                  Component: (await import('@/features/admin-webhooks/routes/webhooks')).WebhooksPage,
                }),
              },
            ],
          },
          { path: '*', Component: NotFoundPage, handle: { title: 'Not found', description: 'This page does not exist.' } satisfies PageMeta },
        ],
      },
    ],
  },
];

export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
