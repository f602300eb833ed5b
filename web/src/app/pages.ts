/**
 * Every screen of the web app, in one list: its path, the module that draws it, who may
 * open it, and its title and meta description. Plain data (no React), so two readers
 * share it:
 * - the router (router.tsx) builds its routes from it, each screen a chunk of its own;
 * - the build (vite.config.ts) writes, for each path, the chunks its screen needs
 *   (`route-preloads.json`), and the api names them in the page it sends
 *   (`<link rel="modulepreload">`, api/src/web-app.ts), so a phone fetches the screen
 *   together with the app instead of after it.
 */
export type PageAccess = 'public' | 'signed-in' | 'admin';

export type PageEntry = {
  /** A react-router path relative to the root; '' is the home page. */
  path: string;
  /** The module under web/src that draws the screen, and the component it exports. */
  module: string;
  component: string;
  access: PageAccess;
  /**
   * The api reads the screen asks for first, with the path's parameters (`:id`), exactly
   * as the screen's query asks for them: the api names them in the page too
   * (`<link rel="preload" as="fetch">`), so they load while the app's code does.
   */
  data?: readonly string[];
  /**
   * Drawn by the api on the server (web/src/entry-server.tsx) and hydrated here: a public
   * page the same for every visitor, whose reads (`data`) the api can make itself. The
   * others arrive as an empty page the app draws once its code has run.
   */
  drawnOnServer?: boolean;
  /** The page title before ' | ETH Shop' ('' for the home page: just 'ETH Shop'). */
  title: string;
  description: string;
};

export const pages: readonly PageEntry[] = [
  {
    path: '',
    module: 'features/products/routes/home.tsx',
    component: 'HomePage',
    access: 'public',
    drawnOnServer: true,
    data: ['/api/products'],
    title: '',
    description: 'Digital packages with daily credit, paid in ETH from any wallet.',
  },
  {
    path: 'product/:id',
    module: 'features/products/routes/product.tsx',
    component: 'ProductPage',
    access: 'public',
    drawnOnServer: true,
    data: ['/api/products/:id'],
    title: 'Package',
    description: "A package's price, daily credit, term and stock; add it to your cart and pay in ETH.",
  },
  {
    path: 'cart',
    module: 'features/cart/routes/cart.tsx',
    component: 'CartPage',
    access: 'public',
    drawnOnServer: true,
    title: 'Cart',
    description: 'Your cart: review the packages you chose before paying in ETH.',
  },
  {
    path: 'login',
    module: 'features/auth/routes/login.tsx',
    component: 'LoginPage',
    access: 'public',
    drawnOnServer: true,
    title: 'Sign in',
    description: 'Sign in to your ETH Shop account to order and pay.',
  },
  {
    path: 'forgot-password',
    module: 'features/auth/routes/forgot-password.tsx',
    component: 'ForgotPasswordPage',
    access: 'public',
    title: 'Forgot password',
    description: 'Get a link by e-mail to set a new password for your ETH Shop account.',
  },
  {
    path: 'reset-password',
    module: 'features/auth/routes/reset-password.tsx',
    component: 'ResetPasswordPage',
    access: 'public',
    title: 'Set a new password',
    description: 'Set a new password for your ETH Shop account with the link we e-mailed you.',
  },
  {
    // The link of the e-mail that announces a cashout to a wallet new to the account.
    path: 'cashout/cancel',
    module: 'features/cashout/routes/cancel-cashout.tsx',
    component: 'CancelCashoutPage',
    access: 'public',
    title: 'Cancel a cashout',
    description: 'Cancel a cashout to a wallet new to your account, block the wallet and sign your account out everywhere.',
  },
  {
    path: 'register',
    module: 'features/auth/routes/register.tsx',
    component: 'RegisterPage',
    access: 'public',
    drawnOnServer: true,
    title: 'Create an account',
    description: 'Create an ETH Shop account to order packages and earn referral rewards.',
  },
  {
    path: 'placeorder',
    module: 'features/orders/routes/place-order.tsx',
    component: 'PlaceOrderPage',
    access: 'signed-in',
    title: 'Place order',
    description: 'Review your order before paying in ETH.',
  },
  {
    // The only screen that loads wallet code (wagmi, viem).
    path: 'order/:id',
    module: 'features/pay/routes/pay.tsx',
    component: 'PayPage',
    access: 'signed-in',
    data: ['/api/orders/:id'],
    title: 'Pay for your order',
    description: 'Pay your order in ETH from your wallet and follow its confirmation.',
  },
  {
    path: 'order/:id/purchased',
    module: 'features/pay/routes/purchased.tsx',
    component: 'PurchasedPage',
    access: 'signed-in',
    title: 'Order paid',
    description: 'Your order and its payment.',
  },
  {
    path: 'profile',
    module: 'app/screens/profile.tsx',
    component: 'ProfilePage',
    access: 'signed-in',
    title: 'Your profile',
    description: 'Your account, balances, referral link and orders.',
  },
  {
    path: 'profile/security',
    module: 'features/auth/routes/security.tsx',
    component: 'SecurityPage',
    access: 'signed-in',
    title: 'Security',
    description: 'Two-factor sign-in for your ETH Shop account.',
  },
  {
    path: 'profile/cashout',
    module: 'features/cashout/routes/cashout.tsx',
    component: 'CashoutPage',
    access: 'signed-in',
    title: 'Cash out',
    description: 'Request a cashout of your balance in ETH.',
  },
  {
    // The admin's landing page.
    path: 'admin',
    module: 'features/admin-overview/routes/overview.tsx',
    component: 'OverviewPage',
    access: 'admin',
    title: 'Overview',
    description: 'Revenue and paid orders per day, work waiting, top packages and CSV exports (admin).',
  },
  {
    path: 'admin/orderlist',
    module: 'features/orders/routes/order-list.tsx',
    component: 'OrderListPage',
    access: 'admin',
    title: 'Orders',
    description: 'All orders (admin).',
  },
  {
    path: 'admin/order/:id',
    module: 'app/screens/admin-order.tsx',
    component: 'AdminOrderPage',
    access: 'admin',
    data: ['/api/admin/orders/:id'],
    title: 'Order',
    description: 'One order with its transfers, refunds and webhook deliveries (admin).',
  },
  {
    path: 'admin/productlist',
    module: 'features/products/routes/product-list.tsx',
    component: 'ProductListPage',
    access: 'admin',
    title: 'Packages',
    description: 'All packages (admin).',
  },
  {
    path: 'admin/products/:id/edit',
    module: 'features/products/routes/product-edit.tsx',
    component: 'ProductEditPage',
    access: 'admin',
    title: 'Edit package',
    description: 'Edit a package (admin).',
  },
  {
    path: 'admin/userlist',
    module: 'features/users/routes/user-list.tsx',
    component: 'UserListPage',
    access: 'admin',
    title: 'Users',
    description: 'All users (admin).',
  },
  {
    path: 'admin/user/:id/edit',
    module: 'features/users/routes/user-edit.tsx',
    component: 'UserEditPage',
    access: 'admin',
    title: 'Edit user',
    description: 'Edit a user (admin).',
  },
  {
    path: 'admin/cashouts',
    module: 'features/admin-payments/routes/cashout-list.tsx',
    component: 'CashoutListPage',
    access: 'admin',
    title: 'Cashouts and refunds',
    description: 'Payouts waiting to be sent (admin).',
  },
  {
    path: 'admin/payments',
    module: 'features/admin-payments/routes/payment-list.tsx',
    component: 'PaymentListPage',
    access: 'admin',
    title: 'Payments',
    description: 'Transfers waiting for an admin (admin).',
  },
  {
    path: 'admin/reconciliation',
    module: 'features/reconciliation/routes/reconciliation.tsx',
    component: 'ReconciliationPage',
    access: 'admin',
    title: 'Reconciliation',
    description: 'The books (admin).',
  },
  {
    path: 'admin/webhooks',
    module: 'features/admin-webhooks/routes/webhooks.tsx',
    component: 'WebhooksPage',
    access: 'admin',
    title: 'Webhooks',
    description: 'Webhook endpoints and deliveries (admin).',
  },
  {
    path: 'admin/audit',
    module: 'features/audit/routes/audit-log.tsx',
    component: 'AuditLogPage',
    access: 'admin',
    title: 'Audit log',
    description: 'Who did what, when and from where (admin).',
  },
  {
    path: 'admin/approvals',
    module: 'features/approvals/routes/approvals.tsx',
    component: 'ApprovalsPage',
    access: 'admin',
    title: 'Approvals',
    description: 'Large money moves waiting for a second admin (admin).',
  },
];
