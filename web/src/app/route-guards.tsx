import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useUserInfo } from '@/features/auth/auth-store';

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

/** Admin screens send non-admins to /login (signed-out visitors come back after). */
export function RequireAdmin() {
  const user = useUserInfo();
  const loginTarget = useLoginRedirect();
  if (!user) return <Navigate to={loginTarget} replace />;
  return user.isAdmin ? <Outlet /> : <Navigate to="/login" replace />;
}
