/** What the offline client says. The quoted ones are the issue's own texts. */
import { formatDateTime } from '../lib/format.ts';

export const OFFLINE_TEXTS = {
  signInNeedsNetwork: 'You are offline. Signing in needs the network.',
  staffOffline: 'You are offline',
  staffOfflineDetail:
    'This portal needs the network. Nothing is saved on this computer; what is on screen may be out of date.',
  listNotSaved: 'Offline — no list saved on this tablet yet',
  tryAgain: 'Try Again',
  lockTitle: 'This tablet is locked',
  lockPrompt: 'Enter your PIN to continue.',
  lockPin: 'PIN',
  unlock: 'Unlock',
  lockLogOff: 'Log Off',
  pinRequired: 'Please enter your PIN.',
  noOfflineUnlock: 'This tablet cannot be unlocked without the network. Please log in again when it is back.',
  endedByPins: 'Too many wrong PINs: the mail saved on this tablet was deleted. Please sign in again.',
  endedByIdle:
    'Your session ended after a time without use: the mail saved on this tablet was deleted. Please sign in again.',
} as const;

/** 'Offline — list saved Nov 23, 2026, 10:42 AM' (the text, US format as the spec's dates). */
export function listSavedText(savedAt: number): string {
  return `Offline — list saved ${formatDateTime(new Date(savedAt).toISOString())}`;
}

/** The lock screen's answer to a wrong PIN. */
export function wrongPinText(attemptsLeft: number): string {
  const tries = attemptsLeft === 1 ? '1 more wrong PIN' : `${attemptsLeft} more wrong PINs`;
  return `The PIN is not correct. ${tries} and the mail saved on this tablet is deleted.`;
}
