import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '@/testing/render-app';
import type { Product } from '../types';
import { HomePage } from './home';

const product = (overrides: Partial<Product>): Product => ({
  _id: 'p1',
  name: 'Gold Package',
  image: '/images/gold.svg',
  description: 'Gold',
  price: 249.5,
  rating: 4.5,
  numReviews: 18,
  countInStock: 25,
  dailyCredit: 6,
  durationDays: 30,
  publishedAt: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('HomePage', () => {
  it('shows a spinner, then a card for every package from GET /api/products', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(
          JSON.stringify([
            product({}),
            product({ _id: 'p2', name: 'Sampler Package', price: 9.9, countInStock: 0, rating: 2.5 }),
          ]),
          { status: 200 },
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderPage(<HomePage />);

    expect(screen.getByRole('heading', { name: 'Available Packages :' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toBeInTheDocument();

    const items = await screen.findAllByRole('listitem');
    expect(fetchMock).toHaveBeenCalledWith('/api/products', expect.objectContaining({ method: 'GET' }));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(items).toHaveLength(2);

    const [gold, sampler] = items as [HTMLElement, HTMLElement];
    expect(within(gold).getByRole('link', { name: 'Gold Package' })).toHaveAttribute('href', '/product/p1');
    expect(within(gold).getByAltText('Gold Package')).toHaveAttribute('src', '/images/gold.svg');
    expect(within(gold).getByText('USD $249.50')).toBeInTheDocument();
    expect(within(gold).getByText('Available')).toBeInTheDocument();
    expect(within(gold).getByRole('img', { name: 'Rated 4.5 out of 5' })).toBeInTheDocument();

    expect(within(sampler).getByText('USD $9.90')).toBeInTheDocument();
    expect(within(sampler).getByText('Out of Stock')).toBeInTheDocument();
  });

  it("shows a red alert 'Error: ' with the server's message when loading fails", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ message: 'Database unavailable' }), { status: 503 })),
    );
    renderPage(<HomePage />);

    // The query retries once (default retry 1) before it gives up.
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error: Database unavailable');
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
  });
});
