// The file the web build writes beside index.html and the api reads (web/route-preloads.ts
// writes it, api/src/web-app.ts reads it).

/** Its name in the build's folder. */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/**
 * One screen in it: its path (react-router syntax, '/' for the home page), who may open
 * it, the chunks its screen needs beyond those index.html already names, and the api
 * reads it starts with, and whether the api draws it on the server (`drawn`).
 */
export type ScreenPreloads = { path: string; access: string; files: string[]; data: readonly string[]; drawn?: boolean };
