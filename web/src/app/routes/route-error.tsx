import { Component, type ReactNode } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { PageRunning } from '../layout/app-layout';

/** Shown in place of a page that failed to load or render; the header stays usable. */
export function RouteError({ error }: { error: unknown }) {
  return (
    <Alert variant="destructive">
      <AlertDescription>{t('error.withMessage', { message: getErrorMessage(error) })}</AlertDescription>
      {/* The app runs this page too: what it shows is the error. */}
      <PageRunning />
    </Alert>
  );
}

type BoundaryProps = {
  /** The address: the error is cleared when the visitor goes elsewhere. */
  resetKey: string;
  children: ReactNode;
};
type BoundaryState = { failed: boolean; error?: unknown; at: string };

/** Draws RouteError in place of its children when they fail, until the address changes. */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, at: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): BoundaryState | null {
    return props.resetKey === state.at ? null : { failed: false, at: props.resetKey };
  }

  override render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}
