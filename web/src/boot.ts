import { MODULES_META } from '@shop/core/contract';
import './index.css';

/**
 * index.html's script: the stylesheet, and the app started (main.tsx, imported here on
 * demand).
 *
 * A page drawn on the server (api/src/web-app.ts) is whole before any script runs: its
 * stylesheet and images are what a phone must fetch first. So the app's code is asked for
 * only once that page is painted, then all at once: the app and the screen's chunks the
 * api names in `<meta name="shop:modules">` (MODULES_META). Fetched together with the page, the code
 * would share the phone's bandwidth with the image the visitor is waiting for.
 * An undrawn page (a signed-in screen) is the app's to draw: it starts at once.
 */
const start = () => import('./main');

const drawn = document.getElementById('root')?.firstElementChild;
if (!drawn) {
  void start();
} else {
  const once = () => {
    const listed = document.querySelector<HTMLMetaElement>(`meta[name="${MODULES_META}"]`)?.content ?? '';
    for (const file of listed.split(' ')) {
      if (!/^\/assets\/[\w.-]+\.js$/.test(file)) continue;
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = file;
      document.head.append(link);
    }
    void start();
  };
  // Once the browser has recorded the page's first contentful paint (a tab opened in the
  // background paints nothing, and starts the app once it is shown). A browser without
  // paint timing: after the next frame (a callback in the frame, then a task after it).
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    const painted = new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      once();
    });
    painted.observe({ type: 'paint', buffered: true });
  } else {
    requestAnimationFrame(() => setTimeout(once, 0));
  }
}
