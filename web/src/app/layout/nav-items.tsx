import { ChevronDown, User } from 'lucide-react';

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

/**
 * The admin menu's accessible name: its button shows 'Admin', which an admin's own name
 * may contain too, so screen readers and tests tell it from the user menu by this.
 */
export const ADMIN_MENU_NAME = 'Admin menu';

/** The queue dashboard: the api's page (bull-board), not a screen of this app. */
export const QUEUE_DASHBOARD_HREF = '/admin/queues';

export function AdminMenuLabel() {
  return (
    <>
      Admin
      <ChevronDown aria-hidden="true" />
    </>
  );
}
