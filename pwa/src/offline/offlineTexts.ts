/** The offline client's texts built from a value (the rest are the catalogues' `offline` and `lock`). */
import { t } from 'i18next';
import { formatDateTime } from '../lib/format.ts';

/** 'You are offline — showing the list saved Nov 23, 2026, 10:42 AM' (the date in the language shown). */
export function listSavedText(savedAt: number): string {
  return t('offline.listSaved', { when: formatDateTime(new Date(savedAt).toISOString()) });
}

/** The lock screen's answer to a wrong PIN. */
export function wrongPinText(attemptsLeft: number): string {
  return t('lock.wrongPin', { count: attemptsLeft });
}
