/**
 * Every screen of every role fits a phone (390x844) and the facility's tablet held upright (800x1280) without
 * sideways scrolling: the page's scroll width is not above the window's width, and no button or link of the
 * screen is pushed or clipped past its right edge (a table scrolling inside its own box would hide its Actions
 * there while the page itself stays narrow). The public pages, the offender's list, Info and viewer, the
 * attorney's and representative's lists, upload and representatives, the approver's registrations, every admin
 * section and dialog, and each staff role's Security page. Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { apiToken, apiUpload, type Credentials } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { makeLetterPdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import { registerApplicant } from '../support/factories.ts';
import { DEMO_ATTORNEY, DEMO_OFFENDER } from '../support/viewer_pages.ts';
import { signInThroughForm } from '../support/offline_pages.ts';

const E2E = { sanitizeResources: false, sanitizeOps: false } as const;
const ADMIN: Credentials = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const APPROVER: Credentials = { username: 'approver@demo.test', password: 'Demo-Approver-2026!' };
const REPRESENTATIVE: Credentials = { username: 'representative@demo.test', password: 'Demo-Rep-2026!' };

const VIEWPORTS = [
  { name: 'phone 390x844', viewport: { width: 390, height: 844 } },
  { name: 'tablet 800x1280', viewport: { width: 800, height: 1280 } },
] as const;

interface Measured {
  scrollWidth: number;
  innerWidth: number;
  /** Buttons and links (drawn, not hidden) whose right edge is past the window's. */
  outside: string[];
}

/** What sticks out on the right of `page`, if anything. */
function measure(page: Page): Promise<Measured> {
  // The window's width as set, not innerWidth: a phone's browser zooms out to show a page wider than itself, and
  // innerWidth then grows with the page.
  const width = page.viewportSize()!.width;
  return page.evaluate((width) => {
    const outside = [
      ...document.querySelectorAll<HTMLElement>('button, a[href], [role="button"], input, select'),
    ]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) return false;
        if (element.closest('[aria-hidden="true"], .ant-select-dropdown-hidden')) return false;
        return box.right > width + 1;
      })
      .slice(0, 5)
      .map((element) =>
        `${element.tagName.toLowerCase()} "${
          (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)
        }" right ${Math.round(element.getBoundingClientRect().right)}`
      );
    const scrollWidth = document.scrollingElement!.scrollWidth;
    if (scrollWidth > width && outside.length === 0) {
      // Say what is wider than the window: the innermost elements past its edge.
      outside.push(
        ...[...document.querySelectorAll<HTMLElement>('body *')]
          .filter((element) =>
            element.getBoundingClientRect().right > width + 1 &&
            (element.parentElement?.getBoundingClientRect().right ?? 0) <= width + 1 &&
            getComputedStyle(element).position !== 'fixed'
          )
          .slice(0, 5)
          .map((element) =>
            `${element.tagName.toLowerCase()}.${element.className} right ${
              Math.round(element.getBoundingClientRect().right)
            }`
          ),
      );
    }
    return { scrollWidth, innerWidth: width, outside };
  }, width);
}

Deno.test({
  name:
    'every screen of every role fits 390x844 and 800x1280: no sideways scrolling and no control past the right edge',
  ignore: !chromiumAvailable(),
  ...E2E,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    const failures: string[] = [];
    try {
      await registerApplicant(server.url, { firstName: 'Margaret', lastName: 'Oyelaran-Whitfield' });
      const token = await apiToken(server, DEMO_ATTORNEY);
      const letter = await apiUpload(server, token, {
        recipient: DEMO_OFFENDER.username,
        title: 'Exhibit list for the hearing on the motion to suppress, with the witness statements attached',
        description: 'Read it before the hearing.',
        bytes: await makeLetterPdf([['Page one of the letter.'], ['Page two.']]),
      });
      for (const { name, viewport } of VIEWPORTS) {
        await t.step(name, async () => {
          const context = await browser.newContext({ viewport, hasTouch: true, isMobile: true });
          const page = await context.newPage();
          page.setDefaultTimeout(20_000);
          const check = async (where: string) => {
            // Let the layout settle (fonts, a table's columns measured after its rows arrive).
            await page.waitForTimeout(300);
            const measured = await measure(page);
            const fits = measured.scrollWidth <= measured.innerWidth && measured.outside.length === 0;
            console.log(
              `${name}, ${where}: scroll width ${measured.scrollWidth} of ${measured.innerWidth}${
                measured.outside.length ? `; past the edge: ${measured.outside.join('; ')}` : ''
              }`,
            );
            if (!fits) failures.push(`${name}, ${where}: ${JSON.stringify(measured)}`);
          };
          const signIn = async (who: Credentials) => {
            await context.clearCookies();
            await page.goto(`${server.url}/logout`);
            await page.waitForURL(/\/login$/);
            await signInThroughForm(page, server.url, who);
            await page.waitForURL(/\/(portal|representative)/);
          };
          const visit = async (path: string, ready: string, where: string) => {
            await page.goto(`${server.url}${path}`);
            await page.locator(ready).first().waitFor();
            await check(where);
          };

          // Signed out.
          await visit('/login', '#login_username', 'sign-in');
          await visit('/register', 'form', 'registration');
          await visit('/forgot-password', 'form', 'forgot password');
          await visit('/reset-password', 'form', 'set a new password');

          // The offender.
          await signIn(DEMO_OFFENDER);
          await page.locator('.document-card, tr.document-row').first().waitFor();
          await check('offender list');
          await page.getByRole('button', { name: /^Info Exhibit/ }).click();
          await page.locator('dialog.info-dialog[open]').waitFor();
          await check('offender Info');
          await page.keyboard.press('Escape');
          const viewer = await context.newPage();
          viewer.setDefaultTimeout(20_000);
          await viewer.goto(`${server.url}/pdfViewer/${letter}`);
          await viewer.getByTestId('page-count').filter({ hasText: /\/ 2/ }).waitFor();
          const viewerFits = await measure(viewer);
          console.log(`${name}, viewer: scroll width ${viewerFits.scrollWidth} of ${viewerFits.innerWidth}`);
          if (viewerFits.scrollWidth > viewerFits.innerWidth) {
            failures.push(`${name}, viewer: ${JSON.stringify(viewerFits)}`);
          }
          await viewer.close();
          await page.getByRole('button', { name: 'Log Off' }).first().click();
          await page.waitForURL(/\/login$/);

          // The attorney.
          await signIn(DEMO_ATTORNEY);
          await page.locator('.document-card, tr.document-row').first().waitFor();
          await check('attorney documents');
          await page.getByRole('button', { name: 'Upload New Document' }).click();
          await page.locator('.ant-modal').waitFor();
          await check('attorney upload dialog');
          await page.keyboard.press('Escape');
          await page.locator('.ant-modal').waitFor({ state: 'hidden' });
          await visit('/portal/attorney/representatives', 'main h2, main h1', 'attorney representatives');
          await visit('/security', 'main h2, main h1', 'attorney Security');

          // The representative.
          await signIn(REPRESENTATIVE);
          await page.locator('.document-card, tr.document-row, .empty-state').first().waitFor();
          await check('representative documents');
          await visit('/security', 'main h2, main h1', 'representative Security');

          // The approver.
          await signIn(APPROVER);
          await page.getByRole('button', { name: /^Approve/ }).first().waitFor();
          await check('approver registrations');
          await page.getByRole('button', { name: /^Approve/ }).first().click();
          await page.locator('.ant-modal').waitFor();
          await check('approver Approve dialog');
          await page.keyboard.press('Escape');
          await page.locator('.ant-modal').waitFor({ state: 'hidden' });
          await visit('/security', 'main h2, main h1', 'approver Security');

          // The admin: every section, and the dialogs of Users.
          await signIn(ADMIN);
          await check('admin dashboard');
          await visit('/portal/admin/users', '.users-row, .ant-table-row', 'admin Users');
          await page.getByRole('button', { name: /^View details/i }).first().click();
          await page.locator('.ant-modal').waitFor();
          await check('admin User Details');
          await page.keyboard.press('Escape');
          await page.locator('.ant-modal').waitFor({ state: 'hidden' });
          await visit('/portal/admin/entities', '.ant-table-row, .entity-row', 'admin Entities');
          await visit('/portal/admin/audit-logs', '.ant-table-row, .audit-row', 'admin Audit Logs');
          await visit('/portal/admin/settings', '.setting-row', 'admin Settings');
          await visit('/portal/admin/settings/email-outbox', '.ant-tabs', 'admin Email Outbox');
          await visit('/portal/admin/ip-whitelist', 'main h2, main h1, .ant-table', 'admin IP Whitelist');
          await visit('/security', 'main h2, main h1', 'admin Security');
          await context.close();
        });
      }
    } finally {
      await browser.close();
      await server.stop();
    }
    assert.deepEqual(failures, [], 'screens that scroll sideways or push a control past the edge');
  },
});
