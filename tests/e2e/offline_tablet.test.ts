/**
 * The offender's offline tablet in a real Chromium with a profile on disk, the network cut with Playwright's
 * `context.setOffline(true)`:
 * 1. signed in, document A opened, C prefetched; network cut, the lock time passes: the lock screen asks for the
 *    PIN (unwrapped in the page's memory: nothing on disk tests a PIN), the list shows with the offline banner, A renders with its page count and prints, C renders,
 *    B (neither opened nor prefetched) says 'Not available offline';
 * 2. on reconnect the audit log holds A's offline view and print once each, marked offline with their real
 *    times, and the sender's list shows A's read time;
 * 3. nothing in the clear at rest (the profile directory scanned for A's title and a marker drawn in its PDF),
 *    and after logout no database, no /api or PDF entry in Cache Storage, and no file of the profile holding a
 *    byte run of any sealed record (the list, each PDF) the session had stored;
 * 4. a second offender on the same profile, offline then online, sees nothing of the first, whose data is gone
 *    before the second's list renders, whose session the second's sign-in ended on the server (the first's token
 *    answers 401, the key with it), and whose sealed records are in no file of the profile after it;
 * 6. after a logout, offline, /login loads from the service worker and says signing in needs the network.
 * Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts (PWA_DIST for another folder).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { chromiumAvailable, launchBrowser, launchPersistent } from '../support/browser.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { makePdf } from '../support/pdfs.ts';
import {
  cachedUrls,
  databases,
  setNumberSettingByApi,
  signInThroughForm,
  storedSession,
} from '../support/offline_pages.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';

const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
/**
 * Added for this run with a DOC number of twelve random digits: a demo number such as 100001 also occurs by
 * chance in the app's own files (pdf.js's CSS has a z-index of 100001), and the scan must find only the session.
 */
const FIRST = {
  username: String(crypto.getRandomValues(new Uint32Array(2)).reduce((a, b) => a * 4294967296 + b, 0))
    .padStart(12, '7').slice(-12),
  password: '582914',
};
const SECOND = { username: '100002', password: '135790' };
const DATABASE = 'legal-mail-offline';

const RUN = crypto.randomUUID().slice(0, 8);
const TITLES = { a: `Alpha letter ${RUN}`, b: `Bravo letter ${RUN}`, c: `Charlie letter ${RUN}` };
/** Drawn on every page of A: found nowhere on disk, in any of the encodings a PDF or a browser would use. */
const MARKER = `PRIVILEGEDMARKER${RUN.toUpperCase()}`;

const OFFLINE_BANNER =
  /^You are offline — showing the list saved [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/;
const PRINT_SPY = `
  window.__prints = 0;
  window.print = () => { window.__prints += 1; };
`;

/** A PDF whose pages draw MARKER, in an uncompressed content stream so that the scan's control can find it. */
async function markedPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([612, 792]);
    const name = page.node.newFontDictionary('Marker', font.ref);
    const text = `BT ${name.toString()} 14 Tf 72 700 Td (${MARKER} page ${i}) Tj ET`;
    page.node.addContentStream(doc.context.register(doc.context.stream(text)));
  }
  return await doc.save({ useObjectStreams: false });
}

const encoder = new TextEncoder();
const hex = (text: string) => [...encoder.encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('');
function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) out[i * 2] = text.charCodeAt(i);
  return out;
}

/** Every way the text could sit on disk: as it is, UTF-16 (V8's two-byte strings), hex (a PDF's text operators). */
function needles(text: string): Uint8Array[] {
  return [
    encoder.encode(text),
    utf16le(text),
    encoder.encode(hex(text)),
    encoder.encode(hex(text).toUpperCase()),
  ];
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0];
  for (
    let i = haystack.indexOf(first);
    i !== -1 && i <= haystack.length - needle.length;
    i = haystack.indexOf(first, i + 1)
  ) {
    let match = true;
    for (let j = 1; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) {
        match = false;
        break;
      }
    }
    if (match) return true;
  }
  return false;
}

/** A DOC number as the browser would store it (UTF-8, or V8's two-byte strings): digits only, so no hex form. */
function plainRuns(text: string): Uint8Array[] {
  return [encoder.encode(text), utf16le(text)];
}

/** The files under `dir` that hold any of `texts` in any encoding of needles(), or any of the `raw` byte runs. */
async function scanProfile(dir: string, texts: string[], raw: Uint8Array[] = []): Promise<string[]> {
  const found: string[] = [];
  const wanted = [...texts.flatMap(needles), ...raw];
  async function walk(path: string): Promise<void> {
    for await (const entry of Deno.readDir(path)) {
      const full = join(path, entry.name);
      if (entry.isDirectory) await walk(full);
      else if (entry.isFile) {
        let bytes: Uint8Array;
        try {
          bytes = await Deno.readFile(full);
        } catch {
          continue; // Locked or gone meanwhile.
        }
        if (wanted.some((needle) => contains(bytes, needle))) found.push(full.slice(dir.length));
      }
    }
  }
  await walk(dir);
  return found;
}

/**
 * 48 bytes from the middle of every sealed record the tablet holds (the list and each PDF's ciphertext): random
 * to anyone without the key, so a run of them found in a file is that record's leftover.
 */
async function sealedRuns(page: Page): Promise<Uint8Array[]> {
  const runs = await page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const all = (store: string) =>
      new Promise<{ data: Uint8Array }[]>((resolve) => {
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
      });
    const records = [...(await all('list')), ...(await all('pdfs'))];
    db.close();
    return records.map(({ data }) => {
      const middle = Math.max(0, Math.floor(data.byteLength / 2) - 24);
      return [...data.subarray(middle, middle + 48)];
    });
  }, DATABASE);
  return runs.map((run) => new Uint8Array(run));
}

function card(page: Page, title: string) {
  return page.locator('li.document-card').filter({ hasText: title });
}

/** View or Print on a document's card: its pop-up, once the viewer shows a page count (or the offline notice). */
async function openFromCard(context: BrowserContext, page: Page, title: string, action: 'View' | 'Print') {
  const [popup] = await Promise.all([
    context.waitForEvent('page'),
    card(page, title).getByRole('button', { name: action }).click(),
  ]);
  return popup;
}

/** The ids of the documents cached on the tablet (the unsealed index store; no content), without creating it. */
function cachedIds(page: Page): Promise<string[]> {
  return page.evaluate(async (name) => {
    const known = await indexedDB.databases();
    if (!known.some((db) => db.name === name)) return [];
    return await new Promise<string[]>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains('documents')) {
          db.close();
          return resolve([]);
        }
        const all = db.transaction('documents').objectStore('documents').getAllKeys();
        all.onsuccess = () => {
          db.close();
          resolve(all.result.map(String));
        };
        all.onerror = () => reject(all.error);
      };
    });
  }, DATABASE);
}

async function waitForCached(page: Page, ids: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const cached = await cachedIds(page);
    if (ids.every((id) => cached.includes(id))) return;
    if (Date.now() > deadline) assert.fail(`cached ${cached.join(', ')}; wanted ${ids.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function auditEvents(server: TestServer, adminToken: string, eventType: string, documentId: string) {
  const response = await fetch(
    `${server.url}/api/admin/audit-logs?eventType=${eventType}&limit=200`,
    { headers: { Authorization: `Bearer ${adminToken}` } },
  );
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  return (body.data.logs as {
    resource_id: string;
    created_at: string;
    event_data: Record<string, unknown>;
  }[])
    .filter((log) => log.resource_id === documentId);
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what}: last ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name:
    'offline tablet: cached, locked, read and printed offline, audited on reconnect, nothing in the clear',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const profile = await Deno.makeTempDir({ prefix: 'lmp-tablet-profile-' });
    let context: BrowserContext | null = null;
    try {
      const admin = await apiToken(server, ADMIN);
      const added = await fetch(`${server.url}/api/admin/offenders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          docNumber: FIRST.username,
          firstName: 'Tablet',
          lastName: 'Reader',
          pin: FIRST.password,
        }),
      });
      assert.equal(added.status, 201, await added.text());
      // One document fetched ahead: C, the newest unread one; B stays on the server only.
      await setNumberSettingByApi(server, admin, 'offline_prefetch_count', 1);
      const attorney = await apiToken(server, ATTORNEY);
      const pdfA = await markedPdf(3);
      assert.ok(
        needles(MARKER).some((needle) => contains(pdfA, needle)),
        'the scan can see the marker in the PDF',
      );
      const ids = {
        b: await apiUpload(server, attorney, {
          recipient: FIRST.username,
          title: TITLES.b,
          bytes: await makePdf(),
        }),
        a: await apiUpload(server, attorney, { recipient: FIRST.username, title: TITLES.a, bytes: pdfA }),
        c: await apiUpload(server, attorney, {
          recipient: FIRST.username,
          title: TITLES.c,
          bytes: await makePdf({ pages: 2 }),
        }),
      };

      context = await launchPersistent(profile, { viewport: { width: 800, height: 1280 }, hasTouch: true });
      await context.addInitScript(PRINT_SPY);
      const page = context.pages()[0] ?? await context.newPage();
      page.setDefaultTimeout(20_000);
      // The page's clock runs as usual, and can be moved past the lock time.
      await page.clock.install();

      await t.step('1. signed in online: A opened, C fetched ahead, B not', async () => {
        await signInThroughForm(page, server.url, FIRST);
        await card(page, TITLES.a).waitFor();
        await page.evaluate(() => navigator.serviceWorker.ready);
        const viewer = await openFromCard(context!, page, TITLES.a, 'View');
        await viewer.getByTestId('page-count').filter({ hasText: '/ 3' }).waitFor();
        await waitForCached(page, [ids.a, ids.c]);
        assert.ok(!(await cachedIds(page)).includes(ids.b), 'B was not fetched ahead');
        await viewer.close();
      });

      await t.step(
        '1. offline, locked by the clock: PIN, list with banner, A and C read, B not',
        async () => {
          await context!.setOffline(true);
          await page.clock.fastForward('05:05');
          await page.getByRole('heading', { name: 'This tablet is locked' }).waitFor();
          // Back to the real time, so the readings below carry the times the server can take.
          await page.clock.setSystemTime(new Date());
          assert.equal(await page.getByText(TITLES.a).count(), 0, 'the locked screen shows no document');
          await page.getByLabel('PIN').fill(FIRST.password);
          await page.getByRole('button', { name: 'Unlock' }).click();
          const banner = page.locator('.offline-banner');
          await banner.waitFor();
          assert.match(
            (await banner.locator('.offline-banner-title').textContent())?.trim() ?? '',
            OFFLINE_BANNER,
          );
          for (const title of Object.values(TITLES)) await card(page, title).waitFor();

          const viewA = await openFromCard(context!, page, TITLES.a, 'View');
          await viewA.getByTestId('page-count').filter({ hasText: '/ 3' }).waitFor();
          await viewA.locator('.pdfViewer .page canvas').first().waitFor();
          await viewA.close();

          const printA = await openFromCard(context!, page, TITLES.a, 'Print');
          await printA.waitForFunction(() => (window as unknown as { __prints: number }).__prints === 1);
          await printA.close();

          const viewC = await openFromCard(context!, page, TITLES.c, 'View');
          await viewC.getByTestId('page-count').filter({ hasText: '/ 2' }).waitFor();
          await viewC.close();

          const viewB = await openFromCard(context!, page, TITLES.b, 'View');
          await viewB.getByText('Not available offline').waitFor();
          await viewB.close();
        },
      );

      await t.step(
        "2. on reconnect: A's offline view and print audited once each; the sender sees it printed",
        async () => {
          const cutAt = Date.now();
          await context!.setOffline(false);
          const views = await eventually(
            () => auditEvents(server, admin, 'document_viewed', ids.a),
            (logs) => logs.some((log) => log.event_data.offline === true),
            'the offline view of A',
          );
          const prints = await eventually(
            () => auditEvents(server, admin, 'document_printed', ids.a),
            (logs) => logs.some((log) => log.event_data.offline === true),
            'the offline print of A',
          );
          // Sent again by a retry or a second window, still once: give any duplicate the time to arrive.
          await page.reload();
          await card(page, TITLES.a).waitFor();
          await new Promise((resolve) => setTimeout(resolve, 1500));
          const offlineViews = (await auditEvents(server, admin, 'document_viewed', ids.a))
            .filter((log) => log.event_data.offline === true);
          const offlinePrints = (await auditEvents(server, admin, 'document_printed', ids.a))
            .filter((log) => log.event_data.offline === true);
          assert.equal(offlineViews.length, 1, JSON.stringify(views));
          assert.equal(offlinePrints.length, 1, JSON.stringify(prints));
          for (const log of [...offlineViews, ...offlinePrints]) {
            const occurred = Date.parse(String(log.event_data.occurredAt));
            // The tablet's time of the reading, before the network came back, not the time it was sent.
            assert.ok(occurred < cutAt && occurred > cutAt - 120_000, `${log.event_data.occurredAt}`);
          }
          const list = await fetch(`${server.url}/api/documents/attorney`, {
            headers: { Authorization: `Bearer ${attorney}` },
          });
          const sent = (await list.json()).documents.find((d: { documentid: string }) =>
            d.documentid === ids.a
          );
          assert.ok(sent.viewed_at, "the sender's list has A's read time");
          // And on the sender's screen: A's Status, the furthest the delivery went (printed, after opened).
          const office = await launchBrowser();
          try {
            const desk = await (await office.newContext()).newPage();
            desk.setDefaultTimeout(20_000);
            await signInThroughForm(desk, server.url, ATTORNEY);
            const rowA = desk.locator('tr.document-row').filter({ hasText: TITLES.a });
            await rowA.getByText(/^Printed$/).waitFor();
          } finally {
            await office.close();
          }
        },
      );

      let sealed: Uint8Array[] = [];
      let token = '';
      await t.step('3. nothing in the clear on disk while signed in', async () => {
        const leaks = await scanProfile(profile, [TITLES.a, MARKER]);
        assert.deepEqual(leaks, [], `found in the clear in ${leaks.join(', ')}`);
        sealed = await sealedRuns(page);
        assert.ok(sealed.length >= 3, `the list and the PDFs are sealed on the tablet (${sealed.length})`);
        assert.ok((await scanProfile(profile, [], sealed)).length > 0, 'the scan sees the sealed records');
        // The session itself (token, DOC number) is on disk while signed in, so that a reload keeps it: the scan
        // finds it, which shows that it would find a leftover after the logout.
        const stored = await storedSession(page);
        assert.equal(
          await page.evaluate(() => localStorage.length),
          0,
          "an offender's session is not in localStorage",
        );
        assert.equal(stored.docId, FIRST.username);
        token = stored.guid ?? '';
        assert.ok(token, 'the session is stored');
        assert.ok((await scanProfile(profile, [token])).length > 0, 'the scan sees the stored token');
        assert.ok(
          (await scanProfile(profile, [], plainRuns(FIRST.username))).length > 0,
          'the scan sees the stored DOC number',
        );
      });

      await t.step(
        '3. after logout: no database, no /api or PDF in Cache Storage, nothing on disk',
        async () => {
          await page.getByRole('button', { name: 'Log Off' }).click();
          await page.waitForURL(/\/login$/, { timeout: 20_000 });
          assert.deepEqual(await databases(page), []);
          const urls = await cachedUrls(page);
          assert.ok(urls.length > 0, 'the service worker precached the shell');
          assert.deepEqual(urls.filter((url) => /\/api\/|\.pdf$/.test(url)), []);
          const leaks = await scanProfile(profile, [TITLES.a, MARKER]);
          assert.deepEqual(leaks, [], `found in the clear in ${leaks.join(', ')}`);
          const left = await scanProfile(profile, [], sealed);
          assert.deepEqual(left, [], `a sealed record outlived the logout in ${left.join(', ')}`);
          const session = await scanProfile(profile, [token], plainRuns(FIRST.username));
          assert.deepEqual(
            session,
            [],
            `the token or the DOC number outlived the logout in ${session.join(', ')}`,
          );
        },
      );

      await t.step(
        '6. after a logout, offline: /login loads from the service worker and says why not',
        async () => {
          await context!.setOffline(true);
          await page.goto(`${server.url}/login`);
          await page.getByText('You are offline. Signing in needs the network.').first().waitFor();
          await page.getByLabel('facility ID number').waitFor();
          await context!.setOffline(false);
        },
      );

      await t.step('4. a second offender on the same tablet sees nothing of the first', async () => {
        // The first signs in again and reads A, then walks away without logging off.
        await signInThroughForm(page, server.url, FIRST);
        await card(page, TITLES.a).waitFor();
        // C and A were read: the newest unread document of the first is fetched ahead, so the tablet holds some.
        const firstCached = await eventually(
          () => cachedIds(page),
          (cached) => cached.length > 0,
          'a prefetch',
        );
        await page.waitForTimeout(1000);
        const firstSealed = await sealedRuns(page);
        const firstToken = (await storedSession(page)).guid;
        assert.ok(firstToken);
        // Offline, the second cannot sign in, and nothing of the first shows.
        await context!.setOffline(true);
        await signInThroughForm(page, server.url, SECOND);
        await page.getByText('You are offline. Signing in needs the network.').first().waitFor();
        assert.equal(await page.getByText(TITLES.a).count(), 0);
        await context!.setOffline(false);
        // Online: at the moment the second's list first renders, the tablet's cache is the second's or none.
        await page.goto(`${server.url}/login`);
        await page.evaluate((name) => {
          const w = window as unknown as { __atFirstList?: Promise<{ owner: string | null; user: string }> };
          const ownerNow = async () => {
            if (!(await indexedDB.databases()).some((db) => db.name === name)) return null;
            return await new Promise<string | null>((resolve) => {
              const request = indexedDB.open(name);
              request.onsuccess = () => {
                const db = request.result;
                if (!db.objectStoreNames.contains('meta')) {
                  db.close();
                  return resolve(null);
                }
                const get = db.transaction('meta').objectStore('meta').get('current');
                get.onsuccess = () => {
                  db.close();
                  resolve(get.result?.userId ?? null);
                };
              };
            });
          };
          const observer = new MutationObserver(() => {
            if (!document.querySelector('[aria-labelledby="offender-documents"]')) return;
            observer.disconnect();
            w.__atFirstList = ownerNow().then((owner) => ({ owner, user: '' }));
          });
          observer.observe(document.body, { childList: true, subtree: true });
        }, DATABASE);
        await page.getByLabel('facility ID number').fill(SECOND.username);
        await page.getByLabel('Pin Number').fill(SECOND.password);
        await page.getByRole('button', { name: 'View Mail' }).click();
        await page.getByRole('heading', { name: 'My documents' }).waitFor();
        const atFirstList = await page.evaluate(() =>
          (window as unknown as { __atFirstList?: Promise<{ owner: string | null; user: string }> })
            .__atFirstList
        );
        assert.ok(atFirstList, 'the list rendered under observation');
        atFirstList.user = JSON.parse((await storedSession(page)).user ?? '{}').id as string;
        assert.ok(
          atFirstList.owner === null || atFirstList.owner === atFirstList.user,
          JSON.stringify(atFirstList),
        );
        await page.waitForTimeout(1000);
        for (const title of Object.values(TITLES)) {
          assert.equal(await page.getByText(title).count(), 0, title);
        }
        const cached = await cachedIds(page);
        for (const id of firstCached) assert.ok(!cached.includes(id), `the first's ${id} is gone`);
        // The first's session, left open, was signed out on the server by the second's sign-in: its token (which
        // the profile's files may still hold) answers nothing, and its key is gone.
        for (const path of ['/api/auth/me', '/api/auth/offline-key']) {
          const r: Response = await fetch(`${server.url}${path}`, {
            headers: { Authorization: `Bearer ${firstToken}` },
          });
          await r.body?.cancel();
          assert.equal(r.status, 401, `${path} with the first's token after the second signed in`);
        }
        const left = await scanProfile(profile, [], firstSealed);
        assert.deepEqual(
          left,
          [],
          `the first's sealed records outlived the second's sign-in in ${left.join(', ')}`,
        );
        const session = await scanProfile(profile, [firstToken!], plainRuns(FIRST.username));
        assert.deepEqual(
          session,
          [],
          `the first's token or DOC number outlived the second's sign-in in ${session.join(', ')}`,
        );
      });

      await t.step(
        '5. the other ways out (a 401, /logout, the idle limit) leave neither the token nor the DOC number on disk',
        async () => {
          const ways: { name: string; out(token: string): Promise<void> }[] = [
            {
              name: 'a 401 (the session ended on the server)',
              out: async (token) => {
                const r = await fetch(`${server.url}/api/auth/logout`, {
                  method: 'POST',
                  headers: { Authorization: `Bearer ${token}` },
                });
                await r.body?.cancel();
                await page.reload();
                await page.waitForURL(/\/login$/);
              },
            },
            {
              name: '/logout',
              out: async () => {
                await page.goto(`${server.url}/logout`);
                await page.waitForURL(/\/login$/);
              },
            },
            {
              name: "the idle limit by the tablet's clock",
              out: async () => {
                await page.clock.fastForward('01:00:00');
                await page.waitForURL(/\/login$/);
              },
            },
          ];
          for (const way of ways) {
            await signInThroughForm(page, server.url, FIRST);
            await card(page, TITLES.a).waitFor();
            const token = (await storedSession(page)).guid;
            assert.ok(token, way.name);
            await way.out(token);
            await page.waitForFunction(async () => (await indexedDB.databases()).length === 0, undefined, {
              polling: 100,
            });
            const left = await scanProfile(profile, [token], plainRuns(FIRST.username));
            assert.deepEqual(
              left,
              [],
              `after ${way.name}, the token or the DOC number is in ${left.join(', ')}`,
            );
          }
        },
      );
    } finally {
      await context?.close().catch(() => {});
      await server.stop();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    }
  },
});
