import { lazy, Suspense, type ComponentType } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LoadBoundary } from './load-boundary';

describe('LoadBoundary', () => {
  it('shows its fallback in place of a part whose code cannot be fetched, and keeps the rest of the page', async () => {
    // What a browser gives when a chunk is gone (a release since the page was opened).
    // React reports the error it caught on the console: expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Gone = lazy<ComponentType>(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    render(
      <main>
        <p>The rest of the page</p>
        <LoadBoundary failed={<p>Could not be loaded</p>}>
          <Suspense fallback={<p>Loading</p>}>
            <Gone />
          </Suspense>
        </LoadBoundary>
      </main>,
    );
    expect(await screen.findByText('Could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The rest of the page')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
  });

  it('shows the part itself once its code is in', async () => {
    const Here = lazy(async () => ({ default: () => <p>The part</p> }));
    render(
      <LoadBoundary failed={<p>Could not be loaded</p>}>
        <Suspense fallback={<p>Loading</p>}>
          <Here />
        </Suspense>
      </LoadBoundary>,
    );
    expect(await screen.findByText('The part')).toBeInTheDocument();
    expect(screen.queryByText('Could not be loaded')).not.toBeInTheDocument();
  });
});
