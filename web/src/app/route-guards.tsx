import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useTwoFactorStatus } from '@/features/auth/api/two-factor-status';
import { ADMIN_REQUIRED_STATE } from '@/features/auth/redirect';
import { useUserInfo } from '@/stores/auth-store';

function useLoginRedirect(): string {
  const { pathname, search } = useLocation();
  return `/login?redirect=${encodeURIComponent(pathname + search)}`;
}

/** SPEC.md section 2: signed-in screens send everyone else to /login. */
export function RequireAuth() {
  const user = useUserInfo();
  const loginTarget = useLoginRedirect();
  return user ? <Outlet /> : <Navigate to={loginTarget} replace />;
}

/**
 * Admin screens send non-admins to /login. A signed-in non-admin gets the sign-in form
 * (not the usual bounce onward) so they can switch to an admin account. This is only
 * a convenience: the api checks admin rights on every request.
 */
export function RequireAdmin() {
  const user = useUserInfo();
  const loginTarget = useLoginRedirect();
  // An admin of a shop that requires two-factor sign-in reaches only its set-up until it is on.
  const twoFactor = useTwoFactorStatus(Boolean(user?.isAdmin));
  if (!user) return <Navigate to={loginTarget} replace />;
  if (!user.isAdmin) return <Navigate to={loginTarget} replace state={ADMIN_REQUIRED_STATE} />;
  // The api refuses every admin call meanwhile; the page is not held back while this loads.
  if (twoFactor.data?.required && !twoFactor.data.on) return <Navigate to="/profile/security" replace />;
  return <Outlet />;
}
