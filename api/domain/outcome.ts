/**
 * What a domain function answers: success with its data, or a failure naming a typed reason. Expected
 * outcomes are values, not exceptions; the domain never chooses an HTTP status or a response message:
 * api/http/failures.ts maps each reason to both, in one table.
 */

/** Every reason a domain function may fail for. Adding one here makes the catalogue demand its entry. */
export const REASONS = [
  /** The input breaks a rule; `detail` is the rule's own message (contract/rules/*). */
  'invalid_input',
  'setting_not_found',
] as const;

export type Reason = (typeof REASONS)[number];

export interface Failure {
  ok: false;
  reason: Reason;
  /** What the message needs beyond the reason: a rule's message, a limit, a DOC number. */
  detail?: string;
}

export type Outcome<T = Record<never, never>> = ({ ok: true } & T) | Failure;

/** A failure for `reason`. */
export function fail(reason: Reason, detail?: string): Failure {
  return detail === undefined ? { ok: false, reason } : { ok: false, reason, detail };
}
