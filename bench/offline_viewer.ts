/**
 * On the offender's tablet, the time to the first rendered page of a 10 MB, 300-page PDF
 * from the network and from the tablet's encrypted cache, and the JavaScript the offender's route loads before
 * the viewer (its gzip size, from the build's precompressed .gz files, and the bytes Chromium actually
 * transferred, which are brotli when the browser accepts it).
 *
 *   node_modules/.bin/vite build --config pwa/vite.config.ts && npm run bench:offline [dist] [--runs=N]
 *
 * The real server on the embedded database, Debian's Chromium at 800x1280 with touch, on this machine (the
 * server, the browser and the load share its cores, and the network is loopback: a facility's Wi-Fi adds its own
 * transfer time to the network figure, none to the cache's). Each run opens the viewer inside the offender's
 * portal by a client-side navigation (the viewer's code already loaded after the first run, as on a tablet in
 * use) and measures from that navigation to the first page's canvas drawn. Network runs first evict the
 * document from the cache; cache runs cut the network (Playwright's setOffline).
 */
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../tests/support/browser.ts';
import { apiToken, apiUpload } from '../tests/support/api_client.ts';
import { makePdf } from '../tests/support/pdfs.ts';
import { startTestServer } from '../tests/support/server.ts';
import { demoAccount, distFromArgs, kb, signInThroughPage } from './support/portal_pages.ts';
import { median } from './support/statistics.ts';

const dist = distFromArgs(Deno.args);
const RUNS = Number(Deno.args.find((arg) => arg.startsWith('--runs='))?.slice(7) ?? 5);
const DATABASE = 'legal-mail-offline';
const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };

/** Opens the portal's viewer route by a client-side navigation; ms until the first page is drawn. */
function firstPageMs(page: Page, documentId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const started = performance.now();
    history.pushState({}, '', `/portal/offender/view/${id}`);
    dispatchEvent(new PopStateEvent('popstate'));
    for (;;) {
      const drawn = document.querySelector('.pdfViewer .page[data-loaded="true"] canvas');
      if (drawn) return performance.now() - started;
      if (performance.now() - started > 120_000) throw new Error('no page drawn in two minutes');
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  }, documentId);
}

async function backToList(page: Page): Promise<void> {
  await page.evaluate(() => {
    history.pushState({}, '', '/portal/offender');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await page.getByRole('heading', { name: 'My documents' }).waitFor();
}

/** Removes the document from the tablet's cache (its index and its sealed bytes), as eviction would. */
function evict(page: Page, documentId: string): Promise<void> {
  return page.evaluate(({ name, id }) =>
    new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const db = request.result;
        const tx = db.transaction(['documents', 'pdfs'], 'readwrite');
        tx.objectStore('documents').delete(id);
        tx.objectStore('pdfs').delete(id);
        tx.oncomplete = () => {
          db.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
    }), { name: DATABASE, id: documentId });
}

function isCached(page: Page, documentId: string): Promise<boolean> {
  return page.evaluate(({ name, id }) =>
    new Promise<boolean>((resolve) => {
      const request = indexedDB.open(name);
      request.onerror = () => resolve(false);
      request.onsuccess = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains('pdfs')) return resolve(false);
        const get = db.transaction('pdfs').objectStore('pdfs').count(id);
        get.onsuccess = () => {
          db.close();
          resolve(get.result === 1);
        };
      };
    }), { name: DATABASE, id: documentId });
}

async function waitCached(page: Page, documentId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await isCached(page, documentId))) {
    if (Date.now() > deadline) throw new Error('the document never reached the cache');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const ms = (value: number) => `${value.toFixed(0)} ms`.padStart(8);

const server = await startTestServer({ PWA_DIST: dist });
const browser = await launchBrowser();
try {
  // The PDF: 300 pages, padded to 10 MB. Sent by the demo attorney; no prefetch, so the first view is the network.
  const admin = await apiToken(server, { username: 'admin@demo.test', password: 'Demo-Admin-2026!' });
  for (const [key, value] of [['offline_prefetch_count', 0], ['max_upload_mb', 20]] as const) {
    const answer = await fetch(`${server.url}/api/admin/settings/${key}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ value: { type: 'number', value } }),
    });
    if (!answer.ok) throw new Error(`${key}: ${await answer.text()}`);
  }
  const bytes = await makePdf({ pages: 300, padTo: 10 * 1024 * 1024 });
  const offender = demoAccount('offender');
  const documentId = await apiUpload(server, await apiToken(server, ATTORNEY), {
    recipient: offender.username,
    title: 'Bench 300-page record',
    bytes,
  });

  // Service workers blocked: every byte below came over the network, none from the precache.
  const context = await browser.newContext({
    viewport: { width: 800, height: 1280 },
    hasTouch: true,
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const scripts = new Map<string, number>();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map<string, string>();
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') urls.set(event.requestId, event.response.url);
  });
  cdp.on('Network.loadingFinished', (event) => {
    const url = urls.get(event.requestId);
    if (url) scripts.set(url, (scripts.get(url) ?? 0) + event.encodedDataLength);
  });

  await page.goto(`${server.url}/login`);
  await signInThroughPage(page, 'offender');
  await page.waitForLoadState('networkidle');
  const beforeViewer = new Map(scripts);
  let gzip = 0;
  for (const url of beforeViewer.keys()) {
    const path = `${dist}${new URL(url).pathname}`;
    const raw = await Deno.readFile(path);
    try {
      gzip += (await Deno.stat(`${path}.gz`)).size;
    } catch {
      gzip += gzipSync(raw, { level: 9 }).byteLength;
    }
  }
  const transferred = [...beforeViewer.values()].reduce((a, b) => a + b, 0);

  const network: number[] = [];
  const cache: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await evict(page, documentId);
    network.push(await firstPageMs(page, documentId));
    await waitCached(page, documentId);
    await backToList(page);
    await context.setOffline(true);
    cache.push(await firstPageMs(page, documentId));
    await backToList(page);
    await context.setOffline(false);
  }

  // How much of the cache's time is IndexedDB giving back the sealed record (no decryption, no pdf.js).
  const readMs = await page.evaluate(({ name, id }) =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const request = indexedDB.open(name);
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const db = request.result;
        const get = db.transaction('pdfs').objectStore('pdfs').get(id);
        get.onsuccess = () => {
          db.close();
          resolve(performance.now() - started);
        };
      };
    }), { name: DATABASE, id: documentId });

  console.log(
    `Offline viewer bench: ${RUNS} runs each, Chromium 800x1280, loopback, this machine`,
  );
  console.log(`  PDF: ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB, 300 pages`);
  console.log(
    `  first page from the network: median ${ms(median(network))}   (runs: ${
      network.map((v) => v.toFixed(0)).join(', ')
    })`,
  );
  console.log(
    `  first page from the cache:   median ${ms(median(cache))}   (runs: ${
      cache.map((v) => v.toFixed(0)).join(', ')
    })`,
  );
  console.log(`    of which IndexedDB reading the sealed 10 MB record back: ${ms(readMs)}`);
  console.log(
    `  offender route JavaScript before the viewer: ${kb(gzip)} gzip, ${
      kb(transferred)
    } transferred (${beforeViewer.size} files)`,
  );
  for (const [url, size] of [...beforeViewer].sort((a, b) => b[1] - a[1])) {
    console.log(`    ${kb(size)}  ${new URL(url).pathname}`);
  }
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}
