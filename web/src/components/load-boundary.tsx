import { Component, type ReactNode } from 'react';

/**
 * Shows `failed` in place of its children when their code could not be loaded: a part of
 * a page loaded on demand (the wallet side of the pay page, the header's menus) meets a
 * dropped connection, or a release made since the page was opened. Without it the error
 * reaches the route's boundary and the whole page is replaced.
 */
export class LoadBoundary extends Component<{ children: ReactNode; failed: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.failed : this.props.children;
  }
}
