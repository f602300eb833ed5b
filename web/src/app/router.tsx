import { useState } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { AppLayout } from './layout/app-layout';
import { RequireAdmin, RequireAuth } from './route-guards';
import { NotFoundPage } from './routes/not-found';
import { RouteError } from './routes/route-error';

/** A lazy route for a screen that is still a placeholder. */
function placeholder(path: string, title: string): RouteObject {
  return {
    path,
    lazy: async () => {
      const { PlaceholderPage } = await import('./routes/placeholder');
      return { Component: () => <PlaceholderPage title={title} /> };
    },
  };
}

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
          placeholder('product/:id', 'Product'),
          placeholder('cart', 'Shopping Cart'),
          placeholder('login', 'Daxil Olun'),
          placeholder('register', 'Registration:'),
          {
            Component: RequireAuth,
            children: [
              placeholder('placeorder', 'Place Order'),
              placeholder('order/:id', 'Pay'),
              placeholder('order/:id/purchased', 'Success Pay'),
              placeholder('profile', 'Profile'),
              placeholder('profile/cashout', 'Cashout'),
            ],
          },
          {
            path: 'admin',
            Component: RequireAdmin,
            children: [
              placeholder('orderlist', 'Order List'),
              placeholder('productlist', 'Product List'),
              placeholder('products/:id/edit', 'Edit Product'),
              placeholder('userlist', 'User List'),
              placeholder('user/:id/edit', 'Edit User'),
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
