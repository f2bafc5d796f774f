/**
 * The viewer draws what pdf.js's optional resources are needed for, on an upright tablet: scanned pages in
 * JPEG 2000, CCITT Group 4 and JBIG2 (pdf.js's WebAssembly decoders), a Japanese font addressed through a
 * predefined CMap, and the standard fonts pdf-lib leaves unembedded (Symbol and ZapfDingbats come from pdf.js's
 * font files). The scans are compared with poppler's pdftoppm rendering of the same page. Every resource comes
 * from our origin. Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import {
  BILEVEL_QUADRANTS,
  ccittPdf,
  CJK_LINES,
  cjkPdf,
  IMAGE_BOX,
  jbig2Pdf,
  JPX_QUADRANTS,
  jpxPdf,
  PAGE,
  popplerRender,
  STANDARD_FONT_LINES,
  standardFontsPdf,
} from '../support/decoder_pdfs.ts';
import { cachedUrls } from '../support/offline_pages.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import {
  canvasPixels,
  DEMO_ATTORNEY,
  DEMO_OFFENDER,
  inkShare,
  meanColour,
  openViewer,
  pageDrawn,
  type PointBox,
  readerContext,
} from '../support/viewer_pages.ts';

const options = { sanitizeResources: false, sanitizeOps: false };

/** The middle of each quadrant of IMAGE_BOX (top-left first), away from the edges where scaling blends. */
function quadrantCentres(): PointBox[] {
  const { x, y, width, height } = IMAGE_BOX;
  const w = width / 2;
  const h = height / 2;
  const inner = (qx: number, qy: number): PointBox => ({
    x: qx + w * 0.25,
    y: qy + h * 0.25,
    width: w * 0.5,
    height: h * 0.5,
  });
  return [inner(x, y + h), inner(x + w, y + h), inner(x, y), inner(x + w, y)];
}

/** Retries `check` until it holds (the service worker precaches after the page has loaded). */
async function eventually(check: () => Promise<boolean>, timeout = 30_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, 'timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Each channel within `tolerance` of the other reader's. */
function near(actual: number[], expected: number[], tolerance = 24): boolean {
  return actual.every((value, i) => Math.abs(value - expected[i]) <= tolerance);
}

/** The scan on page 1 has the colours poppler draws, quadrant by quadrant, and the ones the file holds. */
async function assertScanDrawn(
  page: Page,
  pdf: Uint8Array,
  expected: [number, number, number][],
): Promise<void> {
  await pageDrawn(page, 1);
  const drawn = await canvasPixels(page, 1);
  const poppler = { width: drawn.width, height: drawn.height, rgb: await popplerRender(pdf, drawn) };
  quadrantCentres().forEach((box, i) => {
    const ours = meanColour(drawn, box, PAGE);
    const theirs = meanColour(poppler, box, PAGE);
    assert.ok(near(ours, theirs), `quadrant ${i}: the viewer drew ${ours}, pdftoppm ${theirs}`);
    assert.ok(
      near(ours, expected[i]),
      `quadrant ${i}: the viewer drew ${ours}, the scan holds ${expected[i]}`,
    );
  });
}

/** The text layer's text, spaces dropped (pdf.js splits runs where the unembedded font's widths differ). */
async function pageText(page: Page, pageNumber: number): Promise<string> {
  const text = await page.locator(`.pdfViewer .page[data-page-number="${pageNumber}"] .textLayer`)
    .textContent();
  return (text ?? '').replace(/\s+/g, '');
}

/** A band of the page around a line of 28-point text whose baseline is at `baseline`. */
function lineBand(baseline: number): PointBox {
  return { x: 72, y: baseline - 8, width: 400, height: 36 };
}

Deno.test({
  name: 'the viewer draws JPEG 2000, CCITT and JBIG2 scans, CMap fonts and unembedded standard fonts',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server: TestServer = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      const token = await apiToken(server, DEMO_ATTORNEY);
      const upload = async (title: string, bytes: Uint8Array) =>
        await apiUpload(server, token, { recipient: DEMO_OFFENDER.username, title, bytes });
      const pdfs = {
        jpx: await jpxPdf(),
        ccitt: await ccittPdf(),
        jbig2: await jbig2Pdf(),
        cjk: await cjkPdf(),
        fonts: await standardFontsPdf(),
      };
      const ids = {
        jpx: await upload('JPEG 2000 scan', pdfs.jpx),
        ccitt: await upload('Fax scan', pdfs.ccitt),
        jbig2: await upload('JBIG2 scan', pdfs.jbig2),
        cjk: await upload('Japanese letter', pdfs.cjk),
        fonts: await upload('Standard fonts', pdfs.fonts),
      };
      const { context, page, problems } = await readerContext(browser, server.url, { screen: 'tablet' });
      const origin = new URL(server.url).origin;
      const foreign: string[] = [];
      context.on('request', (request) => {
        const url = request.url();
        if (/^(data|blob|about):/.test(url)) return;
        if (new URL(url).origin !== origin) foreign.push(url);
      });

      await t.step('a JPEG 2000 scan is drawn, as pdftoppm draws it', async () => {
        await openViewer(page, server.url, ids.jpx);
        await assertScanDrawn(page, pdfs.jpx, JPX_QUADRANTS);
      });

      await t.step('a CCITT Group 4 fax scan is drawn, as pdftoppm draws it', async () => {
        await openViewer(page, server.url, ids.ccitt);
        await assertScanDrawn(page, pdfs.ccitt, BILEVEL_QUADRANTS);
      });

      await t.step('a JBIG2 scan is drawn, as pdftoppm draws it', async () => {
        await openViewer(page, server.url, ids.jbig2);
        await assertScanDrawn(page, pdfs.jbig2, BILEVEL_QUADRANTS);
      });

      await t.step('a Japanese font through a predefined CMap shows its text, not blanks', async () => {
        await openViewer(page, server.url, ids.cjk);
        await pageDrawn(page, 1);
        assert.equal(await pageText(page, 1), CJK_LINES.join('').replace(/\s+/g, ''));
        const drawn = await canvasPixels(page, 1);
        CJK_LINES.forEach((line, i) => {
          const ink = inkShare(drawn, lineBand(660 - i * 60), PAGE);
          assert.ok(ink > 0.02, `"${line}": ${ink} of its band is ink`);
        });
      });

      await t.step(
        'unembedded standard fonts show their text; Symbol and ZapfDingbats from our origin',
        async () => {
          const fontFiles: string[] = [];
          const onResponse = (response: { url(): string; status(): number }) => {
            if (/\/standard_fonts\//.test(response.url()) && response.status() === 200) {
              fontFiles.push(new URL(response.url()).pathname.split('/').pop()!);
            }
          };
          context.on('response', onResponse);
          await openViewer(page, server.url, ids.fonts);
          await pageDrawn(page, 1);
          context.off('response', onResponse);
          // pdf.js draws the other twelve with the system's fonts; no system has these two by their names.
          assert.deepEqual(fontFiles.sort(), ['FoxitDingbats.pfb', 'FoxitSymbol.pfb']);
          const text = await pageText(page, 1);
          const drawn = await canvasPixels(page, 1);
          STANDARD_FONT_LINES.forEach(([font, line], i) => {
            // pdf.js gives ZapfDingbats' text layer the character codes ("3478"), whatever draws the glyphs.
            if (font !== 'ZapfDingbats') {
              assert.ok(text.includes(line.replace(/\s+/g, '')), `${font}: "${line}" missing from "${text}"`);
            }
            const ink = inkShare(drawn, lineBand(680 - i * 60), PAGE);
            assert.ok(ink > 0.02, `${font}: ${ink} of its band is ink`);
          });
        },
      );

      await t.step(
        'offline, the tablet still draws the JPEG 2000 scan: the decoders are precached',
        async () => {
          await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
          const precached = async () => (await cachedUrls(page)).map((url) => new URL(url).pathname);
          await eventually(async () => (await precached()).some((path) => path.endsWith('/openjpeg.wasm')));
          const paths = await precached();
          for (const name of ['openjpeg.wasm', 'jbig2.wasm', 'FoxitDingbats.pfb', 'UniJIS-UCS2-H.bcmap']) {
            assert.ok(paths.some((path) => path.endsWith(`/${name}`)), `${name} is precached`);
          }
          assert.ok(!paths.some((path) => path.endsWith('_nowasm_fallback.js')), 'the fallbacks are not');
          // Nothing from the browser's HTTP cache: what follows comes from the service worker or not at all.
          const cdp = await context.newCDPSession(page);
          await cdp.send('Network.clearBrowserCache');
          await context.setOffline(true);
          try {
            await openViewer(page, server.url, ids.jpx);
            await assertScanDrawn(page, pdfs.jpx, JPX_QUADRANTS);
          } finally {
            await context.setOffline(false);
          }
        },
      );

      await context.close();
      // Offline, the API could not be reached, as expected; anything else missing stays a problem.
      const offline = (problem: string) => /ERR_INTERNET_DISCONNECTED \(http[^)]*\/api\//.test(problem);
      problems.splice(0, problems.length, ...problems.filter((problem) => !offline(problem)));
      assert.deepEqual(foreign, [], 'no request may leave the app origin');
      assert.deepEqual(problems, [], 'no page error, CSP refusal or pdf.js warning');
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
