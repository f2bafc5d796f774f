/**
 * The way back from the viewer and its names on a touch screen, on an upright tablet (800×1280, touch) where the
 * pop-up opens as a tab of its own, and on a phone: a labelled Close and Escape close the pop-up and give the
 * list its focus back; Escape inside the viewer's own dialogs closes the dialog first; a viewer tab no script
 * opened goes back to the portal; every toolbar control shows its name under its icon, in the language shown.
 * Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { makePdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import {
  DEMO_ATTORNEY,
  DEMO_OFFENDER,
  openViewer,
  pageDrawn,
  readerContext,
  SCREENS,
  showMoreTools,
} from '../support/viewer_pages.ts';
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

const options = { sanitizeResources: false, sanitizeOps: false };
const TITLE = 'Motion to suppress';

/** Opens the document's viewer pop-up from the list with its View button; resolves once it shows the document. */
async function openFromList(portal: Page, view = `View ${TITLE}`): Promise<Page> {
  const [popup] = await Promise.all([
    portal.waitForEvent('popup'),
    portal.getByRole('button', { name: view }).first().click(),
  ]);
  popup.setDefaultTimeout(20_000);
  await popup.waitForURL(/\/pdfViewer\//);
  await popup.getByTestId('page-count').filter({ hasText: /\/ [1-9]/ }).waitFor();
  return popup;
}

/** Runs `act` (a click or a key), which closes `popup`; the page may go before the action has finished. */
async function closedBy(popup: Page, act: () => Promise<unknown>): Promise<void> {
  const closed = popup.waitForEvent('close');
  closed.catch(() => undefined); // awaited below, unless `act` fails first
  await act().catch((error) => {
    if (!popup.isClosed()) throw error;
  });
  await closed;
}

/** The element focused in the list: its `data-opens-document` (the View button names its document there). */
function focusedDocument(portal: Page): Promise<string | null> {
  return portal.evaluate(() => document.activeElement?.getAttribute('data-opens-document') ?? null);
}

/** What each control of the toolbar shows as text, with its accessible name. */
function toolbarNames(
  page: Page,
): Promise<{ name: string; shown: string; visible: boolean; fontPx: number }[]> {
  return page.getByRole('toolbar').evaluate((bar) =>
    [...bar.querySelectorAll<HTMLElement>('button, label.ant-radio-button-wrapper')].map((control) => {
      const name = control.getAttribute('aria-label') ??
        control.querySelector('input')?.getAttribute('aria-label') ?? control.innerText;
      const text = [...control.querySelectorAll<HTMLElement>('.viewer-tool-text, .viewer-choice-text, span')]
        .find((span) => span.innerText.trim() !== '' && span.children.length === 0);
      const box = text?.getBoundingClientRect();
      return {
        name,
        shown: control.innerText.trim(),
        visible: !!box && box.width > 0 && box.height > 0,
        fontPx: text ? parseFloat(getComputedStyle(text).fontSize) : 0,
      };
    })
  );
}

Deno.test({
  name: 'the viewer closes by its Close button and Escape, and names its controls on touch screens',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const token = await apiToken(server, DEMO_ATTORNEY);
      const id = await apiUpload(server, token, {
        recipient: DEMO_OFFENDER.username,
        title: TITLE,
        description: 'Exhibit list',
        bytes: await makePdf({ pages: 3, title: TITLE }),
      });
      const { context, portal, problems } = await readerContext(browser, server.url, { screen: 'tablet' });
      await portal.getByRole('button', { name: `View ${TITLE}` }).first().waitFor();

      await t.step('Close closes the pop-up and the list gets its focus back on View', async () => {
        const popup = await openFromList(portal);
        await closedBy(popup, () => popup.getByRole('button', { name: 'Close', exact: true }).click());
        await portal.waitForFunction(
          (id) => document.activeElement?.getAttribute('data-opens-document') === id,
          id,
        );
        assert.equal(await focusedDocument(portal), id);
      });

      await t.step('Escape closes the pop-up too', async () => {
        const popup = await openFromList(portal);
        await closedBy(popup, () => popup.keyboard.press('Escape'));
        assert.equal(await focusedDocument(portal), id);
      });

      await t.step(
        'Escape in the properties or print dialog closes the dialog, then the viewer',
        async () => {
          const popup = await openFromList(portal);
          // On the tablet the properties wait behind More; Escape there closes that row first, not the viewer.
          await showMoreTools(popup);
          await popup.keyboard.press('Escape');
          await popup.locator('#viewer-more-tools').waitFor({ state: 'detached' });
          assert.equal(popup.isClosed(), false, 'Escape in More left the viewer open');
          for (
            const [button, dialogName] of [['Document properties', 'Document Properties'], ['Print', 'Print']]
          ) {
            if (button === 'Document properties') await showMoreTools(popup);
            await popup.getByRole('button', { name: button, exact: true }).click();
            const dialog = popup.getByRole('dialog', { name: dialogName });
            await dialog.waitFor();
            await popup.keyboard.press('Escape');
            await dialog.waitFor({ state: 'hidden' });
            assert.equal(popup.isClosed(), false, `Escape in ${dialogName} left the viewer open`);
          }
          // The focus is back on Print, in the toolbar, with More's row still open: Escape closes the row, then
          // the viewer.
          await popup.keyboard.press('Escape');
          await popup.locator('#viewer-more-tools').waitFor({ state: 'detached' });
          await closedBy(popup, () => popup.keyboard.press('Escape'));
        },
      );

      await t.step('a viewer tab no script opened goes back to the portal on Close', async () => {
        const tab = await context.newPage();
        tab.setDefaultTimeout(20_000);
        await openViewer(tab, server.url, id);
        await tab.getByRole('button', { name: 'Close', exact: true }).click();
        await tab.waitForURL(/\/portal\/offender$/);
        await tab.getByRole('button', { name: `View ${TITLE}` }).first().waitFor();
        await tab.close();
      });

      for (const screen of ['tablet', 'phone'] as const) {
        await t.step(
          `${screen}: every toolbar control shows its name under its icon, no tooltip needed`,
          async () => {
            const reader = screen === 'tablet'
              ? { context, page: await context.newPage() }
              : await readerContext(browser, server.url, { screen });
            try {
              await openViewer(reader.page, server.url, id);
              await pageDrawn(reader.page, 1);
              // First what a reader uses, in plain words: the pages, zoom, print, read aloud, More and Close.
              const first = (await toolbarNames(reader.page)).map((control) => control.shown);
              assert.deepEqual(
                first,
                ['Previous page', 'Next page', 'Zoom out', 'Zoom in', 'Print', 'Read aloud', 'More', 'Close'],
              );
              if (screen === 'tablet') {
                // One row on the upright tablet: every control's top within a few pixels of the first's.
                const tops = await reader.page.getByRole('toolbar').evaluate((bar) =>
                  [...bar.querySelectorAll<HTMLElement>('button')].map((b) => b.getBoundingClientRect().top)
                );
                assert.ok(tops.every((top) => Math.abs(top - tops[0]) < 8), `one row: ${tops.join(', ')}`);
              }
              // The rest behind More, each with its name under its icon as well.
              await showMoreTools(reader.page);
              const names = await toolbarNames(reader.page);
              assert.ok(names.length >= 15, `${names.length} controls`);
              for (const control of names) {
                assert.ok(control.visible && control.shown !== '', `${control.name}: no name shown`);
                assert.ok(control.fontPx >= 12, `${control.name}: its name is ${control.fontPx}px`);
                // The words shown are part of the name a screen reader says (WCAG 2.5.3).
                assert.ok(
                  control.name.toLowerCase().includes(control.shown.toLowerCase()),
                  `${control.name}: shows "${control.shown}"`,
                );
              }
              // A tap shows no tooltip to be dismissed.
              await reader.page.getByRole('button', { name: 'Zoom in' }).tap();
              assert.equal(await reader.page.getByRole('tooltip').count(), 0);
            } finally {
              if (screen === 'tablet') await reader.page.close();
              else await reader.context.close();
            }
          },
        );
      }

      await t.step('in Spanish the way back reads Cerrar', async () => {
        const spanish = await browser.newContext(SCREENS.tablet);
        try {
          const page = await spanish.newPage();
          page.setDefaultTimeout(20_000);
          await page.goto(`${server.url}/login`);
          await page.getByRole('button', { name: 'Español' }).click();
          await page.getByLabel(es.login.username).fill(DEMO_OFFENDER.username);
          await page.getByLabel(es.login.password).fill(DEMO_OFFENDER.password);
          await page.getByRole('button', { name: es.login.submit }).click();
          await page.waitForURL(/\/portal/);
          const popup = await openFromList(page, es.list.viewNamed.replace('{{name}}', TITLE));
          await closedBy(
            popup,
            () => popup.getByRole('button', { name: es.common.close, exact: true }).click(),
          );
        } finally {
          await spanish.close();
        }
      });

      await context.close();
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
