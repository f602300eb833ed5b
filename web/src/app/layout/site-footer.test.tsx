import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SiteFooter } from './site-footer';

describe('SiteFooter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the copyright with the current year', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-06-15T12:00:00Z'));
    render(<SiteFooter />);
    expect(screen.getByText('© 2031')).toBeInTheDocument();
  });

  it("has a 'Powered by' link", () => {
    render(<SiteFooter />);
    expect(screen.getByRole('link', { name: /^Powered by/ })).toHaveAttribute('href');
  });
});
