/**
 * What the browser benches share: the build folder they serve, the demo accounts they sign in with, and the
 * sign-in through the page itself (the form the user fills in, so every script a real sign-in loads is loaded).
 */
import type { Page } from 'playwright-core';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };
import { DEMO_ACCOUNTS } from '../../api/cli/demo_seed.ts';

/** The build to measure: the first argument, else PWA_DIST, else pwa/dist. Nothing is built here. */
export function distFromArgs(args: readonly string[]): string {
  const dist = args.find((arg) => !arg.startsWith('--')) ?? Deno.env.get('PWA_DIST') ??
    new URL('../../pwa/dist', import.meta.url).pathname;
  try {
    if (Deno.statSync(`${dist}/index.html`).isFile) return dist;
  } catch { /* missing: said below */ }
  throw new Error(
    `${dist}/index.html is missing: build first (node_modules/.bin/vite build --config pwa/vite.config.ts)`,
  );
}

export type DemoRole = 'offender' | 'attorney';

/** The first demo account of a role (offender 100001 has the demo mail). */
export function demoAccount(role: DemoRole): { username: string; secret: string } {
  const account = DEMO_ACCOUNTS.find((a) => a.role === role);
  if (!account) throw new Error(`no demo ${role}`);
  return account;
}

/** The sign-in form's words in one language (pwa/src/i18n/<language>.json, `login`). */
export interface LoginWords {
  username: string;
  password: string;
  submit: string;
}

/** The spec's English words of the sign-in form. */
export const ENGLISH_LOGIN: LoginWords = en.login;

/** The sign-in form is on screen and usable. */
export async function waitForLoginForm(page: Page, words: LoginWords = ENGLISH_LOGIN): Promise<void> {
  await page.getByRole('button', { name: words.submit }).waitFor();
}

/** Fills in and sends the sign-in form on /login, then waits for the role's list with at least one row. */
export async function signInThroughPage(
  page: Page,
  role: DemoRole,
  words: LoginWords = ENGLISH_LOGIN,
): Promise<void> {
  const account = demoAccount(role);
  await waitForLoginForm(page, words);
  await page.getByLabel(words.username).fill(account.username);
  await page.getByLabel(words.password).fill(account.secret);
  await page.getByRole('button', { name: words.submit }).click();
  await page.waitForURL(new RegExp(`/portal/${role}`));
  await waitForList(page);
}

/** The list shows documents (mail/DocumentTable.tsx: a table row or, on a narrow touch screen, a card). */
export async function waitForList(page: Page): Promise<void> {
  await page.locator('tr.document-row, article').first().waitFor({ timeout: 30_000 });
}

/** KB as the Network panel shows it (1 KB = 1,024 bytes), right-aligned. */
export function kb(bytes: number, width = 8): string {
  return `${(bytes / 1024).toFixed(1)} KB`.padStart(width);
}
