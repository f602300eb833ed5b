// Apart from page-render.ts: index.html's script (web/src/boot.ts) imports this one name,
// and the build puts what it imports into index.html's chunk. Were it beside
// PAGE_STATE_ID, the app (main.tsx) would import index.html's chunk for that, and with it
// the page's stylesheet: every dynamic import of the app would then carry Vite's preload
// helper to load a stylesheet the page already has (web/vite.config.ts, modulePreload).

/**
 * The `<meta name>` of a drawn page that lists the app's chunks for its screen, space
 * separated: index.html's script (web/src/boot.ts) fetches them once the page is painted.
 */
export const MODULES_META = 'shop:modules';
