/** When the offender's list tries the network again (useOffenderList.ts); no React here, so it is tested alone. */

/** A list request still unanswered after this long counts as failed: the saved copy stays, a retry follows. */
export const LIST_TIMEOUT_MS = 6_000;

/** The retries' back-off after `attempt` failures in a row: 2 s doubling to at most a minute. */
export function retryDelay(attempt: number): number {
  return Math.min(60_000, 2_000 * 2 ** Math.max(0, attempt));
}
