import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render-app';

// The cart screen fails as it is drawn.
vi.mock('@/features/cart/routes/cart', () => ({
  CartPage: () => {
    throw new Error('The cart broke');
  },
}));

describe('a page that fails', () => {
  it('shows its error inside the layout, and the next page clears it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { router } = renderApp('/cart');
    expect(await screen.findByText('Error: The cart broke')).toBeInTheDocument();
    // The header stays usable.
    expect(screen.getByRole('link', { name: 'ETH Shop' })).toBeInTheDocument();
    await router.navigate('/login');
    expect(await screen.findByRole('heading', { name: 'Daxil Olun' })).toBeInTheDocument();
    expect(screen.queryByText('Error: The cart broke')).not.toBeInTheDocument();
  });
});
