import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Rating } from './rating';

function shownStars(): string[] {
  const stars = screen.getByRole('img', { name: /out of 5/ });
  return Array.from(stars.querySelectorAll('[data-state]')).map((star) => star.getAttribute('data-state') ?? '');
}

function count(states: string[], state: string): number {
  return states.filter((s) => s === state).length;
}

describe('Rating', () => {
  it.each([
    [3.5, 3, 1, 1],
    [4.49, 4, 0, 1],
    [4.5, 4, 1, 0],
    [5, 5, 0, 0],
    [0, 0, 0, 5],
    [0.5, 0, 1, 4],
    [2.99, 2, 1, 2],
  ])('shows %s as %i full, %i half and %i empty stars', (value, full, half, empty) => {
    render(<Rating value={value} />);
    const states = shownStars();
    expect(states).toHaveLength(5);
    expect(count(states, 'full')).toBe(full);
    expect(count(states, 'half')).toBe(half);
    expect(count(states, 'empty')).toBe(empty);
  });

  it('lists full stars first, then the half star, then empty ones', () => {
    render(<Rating value={3.5} />);
    expect(shownStars()).toEqual(['full', 'full', 'full', 'half', 'empty']);
  });

  it('states the rating for screen readers and shows the review text', () => {
    render(<Rating value={3.5} text="12 reviews" />);
    expect(screen.getByRole('img', { name: 'Rated 3.5 out of 5' })).toBeInTheDocument();
    expect(screen.getByText('12 reviews')).toBeInTheDocument();
  });

  it('keeps out-of-range values within five stars', () => {
    render(<Rating value={7} />);
    expect(shownStars()).toEqual(['full', 'full', 'full', 'full', 'full']);
  });
});
