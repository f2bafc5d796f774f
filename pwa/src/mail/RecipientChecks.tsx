/**
 * Who each typed DOC number is, as the sender types (the Upload modal): each number is looked up once the typing
 * pauses (GET /api/recipients/{docNumber}), and shown as 'SMITH, J. — DOC 100001', or refused with the server's
 * 'No one with this DOC number receives mail here'. The answers are kept while the modal is open, so editing one
 * number never asks again for the others; the lookups are throttled per sender on the server.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, failureMessage } from '../lib/api.ts';
import { lookupRecipient } from './mailApi.ts';
import { docNumbers, MAX_RECIPIENTS, type RecipientCheck } from './uploadForm.ts';

/** A pause this long after the last keystroke sends the lookups: typing 100001 asks once, not six times. */
export const LOOKUP_DEBOUNCE_MS = 400;

/** The lookups of every DOC number in `text`, by number. An empty text forgets them (the modal closed). */
export function useRecipientChecks(text: string): ReadonlyMap<string, RecipientCheck> {
  const { t } = useTranslation();
  const [checks, setChecks] = useState<ReadonlyMap<string, RecipientCheck>>(new Map());

  useEffect(() => {
    if (text.trim() === '') {
      setChecks((current) => (current.size === 0 ? current : new Map()));
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const wanted = docNumbers(text).slice(0, MAX_RECIPIENTS);
      setChecks((current) => {
        const next = new Map(current);
        for (const number of wanted) if (!next.has(number)) next.set(number, { kind: 'checking' });
        return next;
      });
      for (const number of wanted) {
        lookupRecipient(number, controller.signal).then(
          (found) => setChecks((current) => new Map(current).set(number, { kind: 'found', ...found })),
          (error: unknown) => {
            if (controller.signal.aborted) return;
            const message = failureMessage(error, { failed: t('upload.lookupFailed') });
            const check: RecipientCheck = error instanceof ApiError && error.status === 404
              ? { kind: 'missing', message }
              : { kind: 'error', message };
            setChecks((current) => new Map(current).set(number, check));
          },
        );
      }
    }, LOOKUP_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
      // A lookup cut short is asked again at the next pause.
      setChecks((current) => {
        const pending = [...current].filter(([, check]) => check.kind === 'checking');
        if (pending.length === 0) return current;
        const next = new Map(current);
        for (const [number] of pending) next.delete(number);
        return next;
      });
    };
  }, [text, t]);

  return checks;
}

/** The confirmations under the DOC number field, read out as they change. */
export function RecipientChecks(
  { id, text, checks }: { id: string; text: string; checks: ReadonlyMap<string, RecipientCheck> },
) {
  const { t } = useTranslation();
  const numbers = docNumbers(text);
  return (
    <div id={id} className='recipient-checks' role='status' aria-live='polite'>
      {numbers.length > MAX_RECIPIENTS && (
        <p className='recipient-check recipient-check-missing'>
          {t('upload.tooMany', { max: MAX_RECIPIENTS })}
        </p>
      )}
      {numbers.slice(0, MAX_RECIPIENTS).map((number) => {
        const check = checks.get(number);
        if (!check || check.kind === 'checking') {
          return <p key={number} className='recipient-check'>{t('upload.checking', { doc: number })}</p>;
        }
        if (check.kind === 'found') {
          return (
            <p key={number} className='recipient-check recipient-check-found'>
              <span aria-hidden='true'>✓</span>{' '}
              {t('upload.recipient', { name: check.displayName, doc: number })}
            </p>
          );
        }
        return (
          <p key={number} className='recipient-check recipient-check-missing'>
            {t('upload.refused', { doc: number, message: check.message })}
          </p>
        );
      })}
    </div>
  );
}
