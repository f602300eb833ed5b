import type { MessageKey } from '../i18n/i18n';

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
  /**
   * The catalogue of a public screen's own words beyond the storefront's (`shop`): 'auth'
   * for signing in, registering, a password reset and a cashout's cancel link, so the
   * home page does not load them (web/src/i18n/i18n.ts).
   */
  catalogue?: 'auth';
  /**
   * The page title before ' | ETH Shop' ('' for the home page: just 'ETH Shop') and its
   * meta description: message keys of the screen's own catalogues, translated once those
   * are loaded (app-layout.tsx, and entry-server.tsx for a page drawn on the server).
   */
  title: MessageKey | '';
  description: MessageKey;
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
    description: 'pages.home.description',
  },
  {
    path: 'product/:id',
    module: 'features/products/routes/product.tsx',
    component: 'ProductPage',
    access: 'public',
    drawnOnServer: true,
    data: ['/api/products/:id'],
    title: 'pages.product.title',
    description: 'pages.product.description',
  },
  {
    path: 'cart',
    module: 'features/cart/routes/cart.tsx',
    component: 'CartPage',
    access: 'public',
    drawnOnServer: true,
    title: 'pages.cart.title',
    description: 'pages.cart.description',
  },
  {
    path: 'login',
    module: 'features/auth/routes/login.tsx',
    component: 'LoginPage',
    access: 'public',
    catalogue: 'auth',
    drawnOnServer: true,
    title: 'pages.login.title',
    description: 'pages.login.description',
  },
  {
    path: 'forgot-password',
    module: 'features/auth/routes/forgot-password.tsx',
    component: 'ForgotPasswordPage',
    access: 'public',
    catalogue: 'auth',
    title: 'pages.forgotPassword.title',
    description: 'pages.forgotPassword.description',
  },
  {
    path: 'reset-password',
    module: 'features/auth/routes/reset-password.tsx',
    component: 'ResetPasswordPage',
    access: 'public',
    catalogue: 'auth',
    title: 'pages.resetPassword.title',
    description: 'pages.resetPassword.description',
  },
  {
    // The link of the e-mail that announces a cashout to a wallet new to the account.
    path: 'cashout/cancel',
    module: 'features/cashout/routes/cancel-cashout.tsx',
    component: 'CancelCashoutPage',
    access: 'public',
    catalogue: 'auth',
    title: 'pages.cancelCashout.title',
    description: 'pages.cancelCashout.description',
  },
  {
    path: 'register',
    module: 'features/auth/routes/register.tsx',
    component: 'RegisterPage',
    access: 'public',
    catalogue: 'auth',
    drawnOnServer: true,
    title: 'pages.register.title',
    description: 'pages.register.description',
  },
  {
    path: 'placeorder',
    module: 'features/orders/routes/place-order.tsx',
    component: 'PlaceOrderPage',
    access: 'signed-in',
    title: 'pages.placeOrder.title',
    description: 'pages.placeOrder.description',
  },
  {
    // The only screen that loads wallet code (wagmi, viem).
    path: 'order/:id',
    module: 'features/pay/routes/pay.tsx',
    component: 'PayPage',
    access: 'signed-in',
    data: ['/api/orders/:id'],
    title: 'pages.pay.title',
    description: 'pages.pay.description',
  },
  {
    path: 'order/:id/purchased',
    module: 'features/pay/routes/purchased.tsx',
    component: 'PurchasedPage',
    access: 'signed-in',
    title: 'pages.purchased.title',
    description: 'pages.purchased.description',
  },
  {
    path: 'profile',
    module: 'app/screens/profile.tsx',
    component: 'ProfilePage',
    access: 'signed-in',
    title: 'pages.profile.title',
    description: 'pages.profile.description',
  },
  {
    path: 'profile/security',
    module: 'features/auth/routes/security.tsx',
    component: 'SecurityPage',
    access: 'signed-in',
    title: 'pages.security.title',
    description: 'pages.security.description',
  },
  {
    path: 'profile/cashout',
    module: 'features/cashout/routes/cashout.tsx',
    component: 'CashoutPage',
    access: 'signed-in',
    title: 'pages.cashout.title',
    description: 'pages.cashout.description',
  },
  {
    // The admin's landing page.
    path: 'admin',
    module: 'features/admin-overview/routes/overview.tsx',
    component: 'OverviewPage',
    access: 'admin',
    title: 'pages.overview.title',
    description: 'pages.overview.description',
  },
  {
    path: 'admin/orderlist',
    module: 'features/orders/routes/order-list.tsx',
    component: 'OrderListPage',
    access: 'admin',
    title: 'pages.orderList.title',
    description: 'pages.orderList.description',
  },
  {
    path: 'admin/order/:id',
    module: 'app/screens/admin-order.tsx',
    component: 'AdminOrderPage',
    access: 'admin',
    data: ['/api/admin/orders/:id'],
    title: 'pages.adminOrder.title',
    description: 'pages.adminOrder.description',
  },
  {
    path: 'admin/productlist',
    module: 'features/products/routes/product-list.tsx',
    component: 'ProductListPage',
    access: 'admin',
    title: 'pages.productList.title',
    description: 'pages.productList.description',
  },
  {
    path: 'admin/products/:id/edit',
    module: 'features/products/routes/product-edit.tsx',
    component: 'ProductEditPage',
    access: 'admin',
    title: 'pages.productEdit.title',
    description: 'pages.productEdit.description',
  },
  {
    path: 'admin/userlist',
    module: 'features/users/routes/user-list.tsx',
    component: 'UserListPage',
    access: 'admin',
    title: 'pages.userList.title',
    description: 'pages.userList.description',
  },
  {
    path: 'admin/user/:id/edit',
    module: 'features/users/routes/user-edit.tsx',
    component: 'UserEditPage',
    access: 'admin',
    title: 'pages.userEdit.title',
    description: 'pages.userEdit.description',
  },
  {
    path: 'admin/cashouts',
    module: 'features/admin-payments/routes/cashout-list.tsx',
    component: 'CashoutListPage',
    access: 'admin',
    title: 'pages.cashoutList.title',
    description: 'pages.cashoutList.description',
  },
  {
    path: 'admin/payments',
    module: 'features/admin-payments/routes/payment-list.tsx',
    component: 'PaymentListPage',
    access: 'admin',
    title: 'pages.paymentList.title',
    description: 'pages.paymentList.description',
  },
  {
    path: 'admin/reconciliation',
    module: 'features/reconciliation/routes/reconciliation.tsx',
    component: 'ReconciliationPage',
    access: 'admin',
    title: 'pages.reconciliation.title',
    description: 'pages.reconciliation.description',
  },
  {
    path: 'admin/webhooks',
    module: 'features/admin-webhooks/routes/webhooks.tsx',
    component: 'WebhooksPage',
    access: 'admin',
    title: 'pages.webhooks.title',
    description: 'pages.webhooks.description',
  },
  {
    path: 'admin/audit',
    module: 'features/audit/routes/audit-log.tsx',
    component: 'AuditLogPage',
    access: 'admin',
    title: 'pages.auditLog.title',
    description: 'pages.auditLog.description',
  },
  {
    path: 'admin/approvals',
    module: 'features/approvals/routes/approvals.tsx',
    component: 'ApprovalsPage',
    access: 'admin',
    title: 'pages.approvals.title',
    description: 'pages.approvals.description',
  },
];
