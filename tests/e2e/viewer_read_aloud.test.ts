/**
 * Read aloud in the offender's viewer: it reads a real PDF sentence by sentence through the browser's speech
 * synthesis, shows the sentence being read with the word spoken marked, and goes on to the next page; a PDF
 * with no text and a language the tablet has no voice for are said plainly. Headless Chromium has no voices,
 * so the page's `speechSynthesis` is replaced by a recorder of the same shape: it keeps what the viewer asked
 * it to say (the real SpeechSynthesisUtterance objects) and the test plays the voice's part, firing each
 * utterance's start, boundary and end events as a voice does. Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chooseOption } from '../support/antd_select.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { makeLetterPdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_ATTORNEY, DEMO_OFFENDER, openViewer, readerContext } from '../support/viewer_pages.ts';

const options = { sanitizeResources: false, sanitizeOps: false };

/** axe-core, evaluated through the DevTools protocol (the viewer's Content-Security-Policy rightly refuses it). */
const AXE = await Deno.readTextFile(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));

/** axe's WCAG 2.0/2.1 A and AA serious and critical violations in the Read aloud bar, described. */
async function readAloudViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const result = await axe.run('[data-testid="read-aloud"]', {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: { id: string; help: string }) => `${v.id}: ${v.help}`);
  });
}

interface Spoken {
  text: string;
  lang: string;
  voice: string | null;
  rate: number;
}

/** Replaces window.speechSynthesis with a recorder that speaks only when the test says a voice would. */
function recordSpeech(voices: { name: string; lang: string }[]) {
  const recorded: { utterance: SpeechSynthesisUtterance; done: boolean }[] = [];
  const listeners = new EventTarget();
  const fullVoices = voices.map((v) => ({ ...v, voiceURI: v.name, localService: true, default: false }));
  const synth = {
    speaking: false,
    pending: false,
    paused: false,
    onvoiceschanged: null,
    getVoices: () => fullVoices,
    speak(utterance: SpeechSynthesisUtterance) {
      recorded.push({ utterance, done: false });
    },
    /** As Chromium does, the sentence being said ends when speech is cancelled (a stop, a new speed). */
    cancel() {
      for (const entry of recorded.filter((e) => !e.done)) {
        entry.done = true;
        fire(entry.utterance, 'end');
      }
    },
    pause() {
      synth.paused = true;
    },
    resume() {
      synth.paused = false;
    },
    addEventListener: listeners.addEventListener.bind(listeners),
    removeEventListener: listeners.removeEventListener.bind(listeners),
    dispatchEvent: listeners.dispatchEvent.bind(listeners),
  };
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
  // The browser's own `voice` accepts only the browser's own voices; these stand in for the tablet's.
  const chosen = new WeakMap<SpeechSynthesisUtterance, unknown>();
  Object.defineProperty(SpeechSynthesisUtterance.prototype, 'voice', {
    configurable: true,
    get(this: SpeechSynthesisUtterance) {
      return chosen.get(this) ?? null;
    },
    set(this: SpeechSynthesisUtterance, voice: unknown) {
      chosen.set(this, voice);
    },
  });
  const fire = (utterance: SpeechSynthesisUtterance, type: string, extra: Record<string, unknown> = {}) => {
    let event: Event;
    try {
      event = new SpeechSynthesisEvent(type, { utterance, charIndex: 0, ...extra });
    } catch {
      event = Object.assign(new Event(type), { utterance, charIndex: 0, charLength: 0, name: '' }, extra);
    }
    utterance.dispatchEvent(event);
  };
  const current = () => recorded.find((entry) => !entry.done);
  Object.assign(window, {
    speech: {
      spoken: () =>
        recorded.map(({ utterance }) => ({
          text: utterance.text,
          lang: utterance.lang,
          voice: utterance.voice?.name ?? null,
          rate: utterance.rate,
        })),
      /** The voice starts the sentence waiting and reaches the word at `charIndex`. */
      start(charIndex: number, charLength: number) {
        const entry = current()!;
        fire(entry.utterance, 'start');
        fire(entry.utterance, 'boundary', { charIndex, charLength, name: 'word' });
      },
      /** The voice finishes the sentence waiting. */
      end() {
        const entry = current()!;
        entry.done = true;
        fire(entry.utterance, 'end');
      },
    },
  });
}

/** What the page's recorder was asked to say so far. */
function spoken(page: Page): Promise<Spoken[]> {
  return page.evaluate(() => (window as unknown as { speech: { spoken(): Spoken[] } }).speech.spoken());
}

/** Waits until the viewer has asked for `count` sentences, and returns them. */
async function spokenCount(page: Page, count: number): Promise<Spoken[]> {
  await page.waitForFunction(
    (n) => (window as unknown as { speech: { spoken(): unknown[] } }).speech.spoken().length >= n,
    count,
  );
  return spoken(page);
}

const LETTER = [
  ['Your hearing is on March 3. Bring this letter with you.', 'Ask the officer if you need help.'],
  ['This is page two. Your attorney will call you.'],
  ['Keep this letter.'],
];

async function withReader(
  browser: Browser,
  server: TestServer,
  id: string,
  voices: { name: string; lang: string }[],
  run: (page: Page) => Promise<void>,
): Promise<void> {
  const { context, page, problems } = await readerContext(browser, server.url, { screen: 'tablet' });
  try {
    await page.addInitScript(recordSpeech, voices);
    await openViewer(page, server.url, id);
    await run(page);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
}

Deno.test({
  name: 'Read aloud reads a letter sentence by sentence, marks what is read, and goes on to page 2',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const token = await apiToken(server, DEMO_ATTORNEY);
      const upload = async (title: string, bytes: Uint8Array) =>
        await apiUpload(server, token, { recipient: DEMO_OFFENDER.username, title, bytes });
      const letter = await upload('Hearing letter', await makeLetterPdf(LETTER));
      const scan = await upload('Scanned letter', await makeLetterPdf([[], []]));
      const spanish = await upload(
        'Carta en español',
        await makeLetterPdf([['Su audiencia es el lunes.']], { language: 'es-MX' }),
      );
      const VOICES = [{ name: 'Test English', lang: 'en-US' }, { name: 'Test French', lang: 'fr-FR' }];

      await t.step(
        'the letter is read from page 1 on, in reading order, and the view follows to page 2',
        async () => {
          await withReader(browser, server, letter, VOICES, async (page) => {
            await page.getByRole('button', { name: 'Read aloud' }).click();
            const panel = page.getByRole('region', { name: 'Read aloud' });
            const caption = page.getByTestId('read-aloud-caption');

            let said = await spokenCount(page, 1);
            assert.deepEqual(said[0], {
              text: 'Your hearing is on March 3.',
              lang: 'en-US',
              voice: 'Test English',
              rate: 1,
            });
            await page.evaluate(() =>
              (window as unknown as { speech: { start(a: number, b: number): void } }).speech.start(5, 7)
            );
            await caption.locator('mark', { hasText: 'hearing' }).waitFor();
            assert.match(await caption.innerText(), /page 1:\s*Your hearing is on March 3\./);
            assert.deepEqual(await readAloudViolations(page), [], 'the bar, its caption and the marked word');
            await panel.getByRole('button', { name: 'Pause' }).waitFor();

            const end = () =>
              page.evaluate(() => (window as unknown as { speech: { end(): void } }).speech.end());
            await end();
            said = await spokenCount(page, 2);
            assert.equal(said[1].text, 'Bring this letter with you.');
            await caption.filter({ hasText: 'Bring this letter with you.' }).waitFor();
            await end();
            said = await spokenCount(page, 3);
            assert.equal(said[2].text, 'Ask the officer if you need help.');
            await end();

            said = await spokenCount(page, 4);
            assert.equal(said[3].text, 'This is page two.');
            await page.locator('[data-testid="read-aloud-caption"][data-page="2"]').waitFor();
            assert.match(await caption.innerText(), /page 2:\s*This is page two\./);
            // The viewer shows page 2 and tells a screen reader so.
            await page.waitForFunction(() =>
              (document.querySelector('input[aria-label="Page number"]') as HTMLInputElement | null)
                ?.value === '2'
            );
            await page.getByTestId('page-announcement').filter({ hasText: 'Page 2 of 3' }).waitFor();

            // Pause keeps the place; a slower speed says the sentence again at that speed.
            await panel.getByRole('button', { name: 'Pause' }).click();
            await panel.getByRole('status').filter({ hasText: 'Paused on page 2' }).waitFor();
            await panel.getByRole('button', { name: 'Resume' }).click();
            await chooseOption(page, panel.getByRole('combobox', { name: 'Speed' }), '0.75×');
            said = await spokenCount(page, 5);
            assert.deepEqual([said[4].text, said[4].rate], ['This is page two.', 0.75]);

            await panel.getByRole('button', { name: 'Stop' }).click();
            await panel.getByRole('status').filter({ hasText: 'Stopped' }).waitFor();
            assert.equal((await spoken(page)).length, 5, 'nothing more is said after Stop');

            // The bar has no Close of its own (the viewer's is the one Close): Read aloud, pressed, hides it and
            // keeps the focus.
            assert.equal(await panel.getByRole('button', { name: 'Close' }).count(), 0, 'no second Close');
            const readAloud = page.getByRole('toolbar').getByRole('button', { name: 'Read aloud' });
            assert.equal(await readAloud.getAttribute('aria-pressed'), 'true');
            await readAloud.click();
            await panel.waitFor({ state: 'detached' });
            assert.equal(
              await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
              'Read aloud',
            );
          });
        },
      );

      await t.step('a PDF with no text says so', async () => {
        await withReader(browser, server, scan, VOICES, async (page) => {
          await page.getByRole('button', { name: 'Read aloud' }).click();
          await page.getByRole('alert').filter({
            hasText: 'This document has no text that can be read aloud',
          })
            .waitFor();
          assert.deepEqual(await spoken(page), []);
        });
      });

      await t.step('a PDF in a language the tablet has no voice for says so', async () => {
        await withReader(browser, server, spanish, VOICES, async (page) => {
          await page.getByRole('button', { name: 'Read aloud' }).click();
          await page.getByRole('alert').filter({ hasText: 'This tablet has no voice for Spanish' }).waitFor();
          assert.deepEqual(await spoken(page), []);
        });
      });

      await t.step(
        'the same PDF is read in its declared language where the tablet has that voice',
        async () => {
          const voices = [...VOICES, { name: 'Test Mexican Spanish', lang: 'es-MX' }];
          await withReader(browser, server, spanish, voices, async (page) => {
            await page.getByRole('button', { name: 'Read aloud' }).click();
            const said = await spokenCount(page, 1);
            assert.deepEqual([said[0].text, said[0].lang, said[0].voice], [
              'Su audiencia es el lunes.',
              'es-MX',
              'Test Mexican Spanish',
            ]);
          });
        },
      );

      await t.step("the pages' text is in pdf.js's text layer for a screen reader", async () => {
        await withReader(browser, server, letter, VOICES, async (page) => {
          const layer = page.locator('.pdfViewer .page[data-page-number="1"] .textLayer');
          await layer.filter({ hasText: 'Your hearing is on March 3.' }).waitFor();
          assert.equal(await layer.getAttribute('aria-hidden'), null);
        });
      });
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
