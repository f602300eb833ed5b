import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShop, type Shop } from './shop.ts';

let shop: Shop;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  await shop?.close();
});

describe('a guest shops', () => {
  it('browses the grid, opens a package, fills the cart, changes, removes and re-adds; totals to 2 decimals', async () => {
    const page = await shop.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Available Packages :' }).waitFor();
    await page.getByText('Gold Package').first().waitFor();
    expect(await page.getByText('Out of Stock').count()).toBe(1); // the sampler
    await shop.screenshot(page, '01-home');

    await page.getByRole('link', { name: 'Gold Package' }).first().click();
    await page.getByRole('link', { name: 'Go Back' }).waitFor();
    await page.getByText('USD $249.50').first().waitFor();
    await page.getByRole('combobox', { name: 'Count:' }).selectOption('2');
    await shop.screenshot(page, '02-product');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.waitForURL('**/cart');
    await page.getByRole('heading', { name: 'Sum : 2 packet' }).waitFor();
    await page.getByText('USD $499.00').first().waitFor();

    // A second package, then change its quantity in the cart.
    await page.goto('/');
    await page.getByRole('link', { name: 'Silver Package' }).first().click();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.waitForURL('**/cart');
    await page.getByLabel('Quantity of Silver Package').selectOption('3');
    await page.getByRole('heading', { name: 'Sum : 5 packet' }).waitFor();
    // 2 x 249.50 + 3 x 99.99 = 798.97
    await page.getByText('USD $798.97').first().waitFor();
    await shop.screenshot(page, '03-cart');

    await page.getByRole('button', { name: 'Remove Gold Package' }).click();
    await page.getByRole('heading', { name: 'Sum : 3 packet' }).waitFor();
    await page.getByText('USD $299.97').first().waitFor();
    await page.getByRole('button', { name: 'Remove Silver Package' }).click();
    await page.getByText('Your basket is Empty').waitFor();
    expect(await page.getByRole('button', { name: 'Submit Order' }).isDisabled()).toBe(true);
    await shop.screenshot(page, '04-cart-empty');

    await page.getByRole('link', { name: 'Back to Home Page' }).click();
    await page.getByRole('link', { name: 'Silver Package' }).first().click();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByRole('heading', { name: 'Sum : 1 packet' }).waitFor();
    // The header badge counts the quantity, and the cart survives a reload.
    await page.reload();
    await page.getByRole('heading', { name: 'Sum : 1 packet' }).waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '{}'));
    expect(stored).toMatchObject({ itemsPrice: '99.99', totalPrice: '99.99' });
  });

  it('an out-of-stock package offers no quantity and cannot be added', async () => {
    const page = await shop.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'Sampler Package' }).first().click();
    await page.getByText('Out of Stock').first().waitFor();
    expect(await page.getByRole('button', { name: 'Add to Cart' }).isDisabled()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Count:' }).count()).toBe(0);
  });
});

describe('layout', () => {
  it('shows 1, 2, 3 and 4 columns at the breakpoints, measured from the rendered cards', async () => {
    const page = await shop.newPage();
    const columnsAt = async (width: number) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      await page.getByText('Gold Package').first().waitFor();
      const lefts = await page.locator('main li, main [data-product-card]').evaluateAll((els) =>
        els.map((el) => Math.round(el.getBoundingClientRect().left)),
      );
      return new Set(lefts).size;
    };
    expect(await columnsAt(500)).toBe(1);
    expect(await columnsAt(800)).toBe(2);
    expect(await columnsAt(1000)).toBe(3);
    expect(await columnsAt(1300)).toBe(4);
    await shop.screenshot(page, '05-home-wide');
  });
});
