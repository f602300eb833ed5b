// What the api and the web build's server bundle agree on to draw a public page on the
// server (web/src/entry-server.tsx renders, api/src/web-app.ts calls and caches).
import type { ProductJson } from './products-json.ts';
import type { ShopConfigJson } from './network.ts';
import type { Locale } from './locales.ts';

/** The server bundle in the build's folder; a dot folder, so the static files never serve it. */
export const SERVER_ENTRY_FILE = '.server/entry-server.js';

/** The id of the page's embedded data (`<script type="application/json">`): the app's query cache, dehydrated. */
export const PAGE_STATE_ID = 'shop-state';


/**
 * The reads a page shows at once, read by the api through the same cached reads the
 * browser would call (GET /api/config, /api/products, /api/products/:id) and put into the
 * app's query cache before it renders, so the browser finds them in the page.
 */
export type PageData = {
  shopConfig: ShopConfigJson;
  /** The catalogue's first page, as GET /api/products answers it (its items, and the next page's path). */
  products?: { items: ProductJson[]; next: string | null };
  product?: ProductJson;
};

export type RenderRequest = {
  /** The path (and query) of the page. */
  url: string;
  /** The page's language: the visitor's (api/src/middleware/locale.ts). */
  locale: Locale;
  /** The currency prices are also shown in ('USD': none), from the visitor's cookie. */
  currency: string;
  data: PageData;
};

export type RenderedPage = {
  /** The markup inside #root. */
  html: string;
  /** The page's <title> and meta description, as the app sets them once it runs. */
  title: string;
  description: string;
  /** The JSON of the app's dehydrated query cache, safe inside a <script> element. */
  state: string;
};

/** The server bundle's export; null: no page to draw here (a redirect, an unknown path). */
export type RenderPage = (request: RenderRequest) => Promise<RenderedPage | null>;
