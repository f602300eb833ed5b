/** The header's links and menu triggers: full width in the small-screen menu. */
export const navButton = 'w-full justify-start md:w-auto md:justify-center';
