import { ChevronDown, User } from 'lucide-react';
import type { AdminWaitingJson } from '@shop/core/contract';
import { waitingTotal } from '@/api/get-admin-waiting';
import { Badge } from '@/components/ui/badge';
import { t } from '@/i18n/i18n';

/** The header's links and menu triggers: full width in the small-screen menu. */
export const navButton = 'w-full justify-start md:w-auto md:justify-center';

/**
 * What the user and admin menu triggers show. Shared by the menus (loaded on demand)
 * and the buttons that load them (site-header.tsx).
 */
export function UserMenuLabel({ name }: { name: string }) {
  return (
    <>
      <User aria-hidden="true" />
      <span className="max-w-48 truncate">{name}</span>
      <ChevronDown aria-hidden="true" />
    </>
  );
}

/** The queue dashboard: the api's page (bull-board), not a screen of this app. */
export const QUEUE_DASHBOARD_HREF = '/admin/queues';

/**
 * 'Admin', and the count of what waits for the admin (approvals to decide, cashouts to pay)
 * when something does. The button's accessible name is this content: ' menu' for screen
 * readers only (an admin's own name may contain 'Admin'; the user menu shows it), and what
 * waits ('Admin menu: 3 waiting', the badge showing '3'), so the name always holds the
 * visible text (WCAG 2.5.3).
 */
export function AdminMenuLabel({ waiting }: { waiting?: AdminWaitingJson | undefined }) {
  const total = waiting && waitingTotal(waiting);
  return (
    <>
      {t('header.admin')}
      <span className="sr-only"> {total && total.count > 0 ? `${t('header.adminMenu')}: ` : t('header.adminMenu')}</span>
      {total && total.count > 0 ? (
        <>
          <Badge variant="destructive" className="rounded-full px-1.5">
            {total.text}
          </Badge>
          <span className="sr-only"> {t('header.adminWaiting')}</span>

        </>
      ) : null}
      <ChevronDown aria-hidden="true" />
    </>
  );
}
