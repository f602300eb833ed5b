import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { ClassLists } from '@/testing/class-lists';
import { cn } from './utils';

const sources = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/**/*.test.{ts,tsx}', '!/src/testing/**'], { query: '?raw', import: 'default', eager: true });

const classes = (list: string) => [...new Set(list.split(' ').filter(Boolean))].sort();

describe('the class lists the app merges (cn)', () => {
  const calls = new ClassLists(sources).all();

  it('are found: every call of cn, each with the lists its callers give it', () => {
    expect(calls.length).toBeGreaterThan(50);
    // The button's list with a caller's size and className (the header's menu toggle).
    expect(calls.some((c) => c.lists.some((list) => classes(list).includes('size-9') && classes(list).includes('md:hidden')))).toBe(true);
  });

  it('are each resolved by cn as tailwind-merge resolves them', () => {
    const differences = calls.flatMap(({ where, lists }) =>
      lists.flatMap((list) => {
        const ours = classes(cn(list)).join(' ');
        const theirs = classes(twMerge(list)).join(' ');
        return ours === theirs ? [] : [`${where}: "${list}": cn gives "${ours}", tailwind-merge "${theirs}"`];
      }),
    );
    expect(differences).toEqual([]);
  });
});
