import { render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '@/lib/query-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SiteFooter } from './site-footer';

describe('SiteFooter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the copyright with the current year', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-06-15T12:00:00Z'));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SiteFooter />
      </QueryClientProvider>,
    );
    expect(screen.getByText('© 2031')).toBeInTheDocument();
  });

  it("has a 'Powered by' link", () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SiteFooter />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('link', { name: /^Powered by/ })).toHaveAttribute('href');
  });
});
