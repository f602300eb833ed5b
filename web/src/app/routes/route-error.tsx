import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { getErrorMessage } from '@/lib/api-client';
import { NotFoundPage } from './not-found';

/** Shown in place of a page that failed to load or render; the header stays usable. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : getErrorMessage(error);
  return (
    <Alert variant="destructive">
      <AlertDescription>Error: {message}</AlertDescription>
    </Alert>
  );
}
