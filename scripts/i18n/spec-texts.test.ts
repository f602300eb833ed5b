import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../lib/paths.ts';

/**
 * The shop's English is SPEC.md's, word for word (issue 41): each message below is a
 * text SPEC.md quotes for a screen, and stays exactly as quoted in the English catalogue
 * (web/src/i18n/catalogs/<area>/en.json), 'Daxil Olun' included. A translation changes the
 * other languages, never these.
 */
const SPEC_TEXTS: Record<string, string> = {
  'header.cart': "Cart",
  'header.admin': "Admin",
  'notFound.backHome': "Back to Home Page",
  'pages.cart.title': "Cart",
  'products.home.heading': "Available Packages :",
  'products.addToCart.add': "Add to Cart",
  'products.stock.available': "Available",
  'products.stock.out': "Out of Stock",
  'cart.empty': "Your basket is Empty",
  'cart.summary.submit': "Submit Order",
  'backLink.goBack': "Go Back",
  'auth.login.heading': "Daxil Olun",
  'auth.login.register': "Register",
  'auth.register.heading': "Registration:",
  'auth.register.haveAccount': "Have a account?",
  'auth.register.submit': "Register",
  'pay.wallet.installMetaMask': "Please,Install MetaMask!",
  'pay.wallet.connectMetaMask': "Please,connect MetaMask.",
  'pay.wallet.switchNetwork': "Please,switch Ethereum Mainnet Network.",
  'pay.wallet.connected': "MetaMask Successfully Connected",
  'pay.page.title': "Pay",
  'pay.exchange.copied': "Copy to clipboard",
  'pay.openInMetaMask.open': "Open MetaMask",
  'pay.summary.total': "Total",
  'pay.quote.providerError': "Provider error.",
  'pay.walletSection.connect': "Connect to MetaMask",
  'pay.purchased.txMissing': "Transaction not find",
  'pay.purchased.title': "Success Pay",
  'orders.place.summary': "Order Summary",
  'orders.place.total': "Total",
  'orders.place.button': "Place Order",
  'orders.place.title': "Order Items",
  'orders.place.empty': "Your cart is empty",
  'cashout.notEnoughMoney': "Not Enough Money",
  'cashout.success': "Cashout Success",
  'users.balance.exchanged': "Balance exchanged!",
  'users.balance.exchangeFailed': "Exchange failed",
  'users.balance.exchange': "Exchange to Passive Balance",
  'users.profile.update': "Update Profile",
  'users.profile.updated': "Profile updated",
  'users.referral.copied': "Copy to clipboard",
  'orders.delete.deleted': "Order deleted!",
  'orders.delete.failed': "Failed to delete order.",
  'orders.delete.button': "Delete Order",
  'products.admin.deleted': "Product deleted!",
  'products.admin.deleteFailed': "Failed to delete Product.",
  'products.admin.created': "Product created!",
  'products.admin.createFailed': "Failed to create Product.",
  'products.admin.create': "Create Package",
  'products.form.updated': "Product updated",
  'products.form.update': "Update",
  'users.list.isAdmin': "Admin",
  'users.list.confirmTitle': "Are you sure",
  'users.form.isAdmin': "Is Admin",
  'users.form.update': "Update",
  'users.form.updated': "user updated successfully",
  'adminPayments.cashoutActions.confirm': "Are you sure",
  'adminOrder.summary.total': "Total",
};

const SPEC = path.join(REPO_ROOT, '..', 'shared', 'SPEC.md');
const english = Object.assign(
  {},
  ...['shop', 'auth', 'account', 'admin'].map((area) => JSON.parse(readFileSync(path.join(REPO_ROOT, 'web/src/i18n/catalogs', area, 'en.json'), 'utf8')) as Record<string, string>),
) as Record<string, string>;

describe("the spec's English texts", () => {
  it('are quoted in SPEC.md as the catalogue keeps them', () => {
    const spec = readFileSync(SPEC, 'utf8');
    for (const text of Object.values(SPEC_TEXTS)) expect(spec, text).toContain(`'${text}'`);
  });

  it('are the English catalogue\'s messages, unchanged', () => {
    for (const [key, text] of Object.entries(SPEC_TEXTS)) expect(english[key], key).toBe(text);
  });
});
