import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from '../scripts/lib/paths.ts';
import { isMain, runStandalone, type Bench } from './lib/main.ts';
import { tempDir } from './lib/scope.ts';
import { kb } from './lib/stats.ts';

/**
 * The JavaScript a browser loads for the home page and for the pay page: the web app is
 * built with its own Vite config into a temporary directory (web/dist, which others may
 * be serving, is left alone), and the chunk graph is followed from index.html through
 * Vite's manifest: the entry and its static imports, the app it imports (main.tsx), plus
 * the route's lazy chunk, and the static imports of each. The baseline is a bare React + ReactDOM app built the same way.
 */
/** The app, which index.html's script (src/boot.ts) imports once the page is drawn. */
const APP_MODULE = 'src/main.tsx';
const HOME_ROUTE = 'src/features/products/routes/home.tsx';
const PAY_ROUTE = 'src/features/pay/routes/pay.tsx';
/** The header's signed-in menus, loaded when a signed-in user reaches for one. */
const SIGNED_IN_MENUS = 'src/app/layout/nav-menus.tsx';
/** A catalogue of the app's words (web/src/i18n): an area in a locale, loaded with the screens of the area. */
const catalogue = (area: string, locale: string) => `src/i18n/catalogs/${area}/${locale}.json`;
const LOCALES = ['en', 'az', 'ru'];
/** Issue 39: the home page at most 110 kB of JavaScript, gzipped (issue 41: with its words, in the largest of its languages). */
const HOME_TARGET_BYTES = 110_000;
/** Strings only wallet code carries (wagmi, viem's JSON-RPC wallet methods, its hashing). */
const WALLET_MARKERS = ['wagmi', 'eth_sendTransaction', 'eth_requestAccounts', 'keccak', 'secp256k1'];

type Manifest = Record<string, { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean }>;
type Chunk = { file: string; raw: number; gzip: number; text: string; dynamicImports: string[] };

const run = promisify(execFile);

export async function viteBuild(root: string, outDir: string): Promise<void> {
  const vite = path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js');
  await run(process.execPath, [vite, 'build', root, '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'error'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
  });
}

async function readBuild(outDir: string) {
  const manifest = JSON.parse(await readFile(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
  const chunks = new Map<string, Chunk>();
  const chunk = async (key: string): Promise<Chunk> => {
    const entry = manifest[key];
    if (!entry) throw new Error(`${key} is not in the Vite manifest`);
    let found = chunks.get(entry.file);
    if (!found) {
      const bytes = await readFile(path.join(outDir, entry.file));
      found = { file: entry.file, raw: bytes.length, gzip: gzipSync(bytes).length, text: bytes.toString('utf8'), dynamicImports: entry.dynamicImports ?? [] };
      chunks.set(entry.file, found);
    }
    return found;
  };
  /** The chunks a browser loads for these modules: each one and its static imports. */
  const load = async (keys: string[]): Promise<Chunk[]> => {
    const seen = new Set<string>();
    const queue = [...keys];
    while (queue.length > 0) {
      const key = queue.shift() as string;
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(...(manifest[key]?.imports ?? []));
    }
    return Promise.all([...seen].map(chunk));
  };
  return { manifest, html, load };
}

const total = (chunks: Chunk[], field: 'raw' | 'gzip') => chunks.reduce((sum, c) => sum + c[field], 0);
const walletIn = (chunks: Chunk[]) =>
  chunks.flatMap((c) => {
    const markers = WALLET_MARKERS.filter((m) => c.text.includes(m));
    return markers.length > 0 ? [`${path.basename(c.file)} (${markers.join(', ')})`] : [];
  });

export const webBench: Bench = {
  id: 'web',
  title: 'Web: gzipped JavaScript per page (production build)',
  async run(scope) {
    const tmp = await tempDir(scope, 'build directory', 'shop-bench-web-');
    const appOut = path.join(tmp, 'app');
    const bareOut = path.join(tmp, 'bare-react');
    await viteBuild(path.join(REPO_ROOT, 'web'), appOut);
    await viteBuild(path.join(REPO_ROOT, 'bench/web-baseline'), bareOut);

    const app = await readBuild(appOut);
    const entry = app.manifest['index.html'];
    if (!entry?.isEntry) throw new Error('the Vite manifest has no index.html entry');
    // What index.html asks for must be what the manifest says the entry loads.
    const script = /<script type="module"[^>]*src="\/([^"]+)"/.exec(app.html)?.[1];
    if (script !== entry.file) throw new Error(`index.html loads ${script ?? 'no module script'}, the manifest's entry is ${entry.file}`);
    const entryChunks = await app.load(['index.html']);
    const entryFiles = new Set(entryChunks.map((c) => c.file));
    const preloads = [...app.html.matchAll(/<link rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map((m) => m[1] as string);
    const unknownPreload = preloads.find((f) => !entryFiles.has(f));
    if (unknownPreload) throw new Error(`index.html preloads ${unknownPreload}, which the entry does not import`);
    // index.html's script (boot.ts) imports the app on every page: part of every page's code.
    if (!entry.dynamicImports?.includes(APP_MODULE)) throw new Error(`index.html's script does not import ${APP_MODULE}`);
    // The app's lazy imports: those of main.tsx and of the chunks it imports (the build
    // may put the router in a chunk of its own).
    const appLazy = new Set((await app.load([APP_MODULE])).flatMap((c) => c.dynamicImports));
    for (const route of [HOME_ROUTE, PAY_ROUTE, SIGNED_IN_MENUS]) {
      if (!appLazy.has(route)) throw new Error(`${route} is not a lazy route of the app`);
    }

    // A page loads its words in one language, the visitor's (issue 41): the home page's
    // figure is in the language whose catalogue weighs most, the others beside it.
    const homeIn = await Promise.all(LOCALES.map(async (locale) => ({ locale, chunks: await app.load(['index.html', APP_MODULE, HOME_ROUTE, catalogue('shop', locale)]) })));
    const heaviest = homeIn.reduce((a, b) => (total(b.chunks, 'gzip') > total(a.chunks, 'gzip') ? b : a));
    const home = heaviest.chunks;
    const homeSignedIn = await app.load(['index.html', APP_MODULE, HOME_ROUTE, SIGNED_IN_MENUS, catalogue('shop', heaviest.locale)]);
    // The pay route loads its wallet chunk as soon as the order is drawn: both are part of the page.
    const payPage = app.manifest[PAY_ROUTE]?.dynamicImports ?? [];
    const pay = await app.load(['index.html', APP_MODULE, PAY_ROUTE, ...payPage, catalogue('shop', heaviest.locale), catalogue('account', heaviest.locale)]);
    const payFiles = new Set(pay.map((c) => c.file));
    const onDemand = (await app.load(payPage.flatMap((k) => app.manifest[k]?.dynamicImports ?? []))).filter((c) => !payFiles.has(c.file));

    const bare = await readBuild(bareOut);
    const bareChunks = await bare.load(['index.html']);

    const homeGzip = total(home, 'gzip');
    const bareGzip = total(bareChunks, 'gzip');
    const homeWallet = walletIn(homeSignedIn);
    const payWallet = walletIn(pay);
    const largest = [...home].sort((a, b) => b.gzip - a.gzip).slice(0, 4);
    return {
      rows: [
        {
          metric: 'Home page (/): JavaScript loaded, gzipped',
          target: `<= ${kb(HOME_TARGET_BYTES)}`,
          figure: `${kb(homeGzip)} in ${home.length} files (${kb(total(home, 'raw'))} raw), in ${heaviest.locale} (${homeIn.map((h) => `${h.locale} ${kb(total(h.chunks, 'gzip'))}`).join(', ')})`,
          baseline: `${kb(bareGzip)} (bare React + ReactDOM, ${kb(total(bareChunks, 'raw'))} raw)`,
          pass: homeGzip <= HOME_TARGET_BYTES,
        },
        {
          metric: 'Home page, signed in, a header menu opened (adds the menus)',
          target: '-',
          figure: `${kb(total(homeSignedIn, 'gzip'))} in ${homeSignedIn.length} files (${kb(total(homeSignedIn, 'raw'))} raw)`,
          baseline: `${kb(bareGzip)} (bare React + ReactDOM)`,
        },
        {
          metric: 'Home page: wallet code in its chunks',
          target: 'none',
          figure: homeWallet.length === 0 ? 'none' : homeWallet.join('; '),
          baseline: `pay page: ${payWallet.length > 0 ? payWallet.join('; ') : 'none found (the check would be blind)'}`,
          pass: homeWallet.length === 0 && payWallet.length > 0,
        },
        {
          metric: `Pay page (/order/:id): JavaScript loaded, gzipped (in ${heaviest.locale})`,
          target: '-',
          figure: `${kb(total(pay, 'gzip'))} in ${pay.length} files (${kb(total(pay, 'raw'))} raw)`,
          baseline: `${kb(bareGzip)} (bare React + ReactDOM)`,
        },
      ],
      notes: [
        `Built with \`vite build web\` (the app's own config) into a temporary directory${existsSync(path.join(REPO_ROOT, 'web/dist')) ? '; web/dist was not used or changed' : ''}; sizes are each file gzipped with zlib's default level, summed; CSS is not counted.`,
        "The home page row is a guest's visit; a signed-in visitor's header also loads the user and admin menus (Radix's dropdown), on demand.",
        'Not counted, as nothing loads them at start: the toasts (sonner, when a page first shows one) and the screens\' chunk list (route-preloads.json, data, fetched once the app is idle).',
        `Home page's largest chunks (gzipped): ${largest.map((c) => `${path.basename(c.file)} ${kb(c.gzip)}`).join(', ')}.`,
        `Wallet markers searched: ${WALLET_MARKERS.map((m) => `\`${m}\``).join(', ')}. The pay page loads ${onDemand.length > 0 ? `${onDemand.map((c) => `${path.basename(c.file)} (${kb(c.gzip)})`).join(', ')} later, on demand (not counted)` : 'nothing more on demand'}.`,
      ],
    };
  },
};

if (isMain(import.meta.url)) await runStandalone(webBench);
