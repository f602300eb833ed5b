// The file the web build writes beside index.html (web/route-preloads.ts): the api reads it
// to name a page's chunks (api/src/web-app.ts), the app to load a screen's chunks together
// when a link opens it (web/src/app/screen-preloads.ts).

/** Its name in the build's folder. */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/**
 * One screen in it: its path (react-router syntax, '/' for the home page), who may open
 * it, the chunks its screen needs beyond those index.html already names, and the api
 * reads it starts with, and whether the api draws it on the server (`drawn`).
 */
export type ScreenPreloads = { path: string; access: string; files: string[]; data: readonly string[]; drawn?: boolean };
