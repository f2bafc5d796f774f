/** The answer of a roster import (POST /api/admin/offenders/import `data`, and the CLI's report). */
import type { RosterRejectionCode } from '../rules/roster.ts';

export interface RosterReportRow {
  /** The line of the CSV file (the header is line 1). */
  line: number;
  docNumber: string;
  outcome: 'added' | 'updated' | 'rejected';
  /** Why a row was rejected, in English (the command line prints it). */
  reason?: string;
  /** Why a row was rejected, as a code the PWA words in the language shown (contract/rules/roster.ts). */
  code?: RosterRejectionCode;
  /** The values the reason names: a PIN's `min` and `max`, a row's `fields` and the header's `expected`, the first `line`. */
  params?: Record<string, number>;
}

export interface RosterReport {
  added: number;
  updated: number;
  rejected: number;
  rows: RosterReportRow[];
}
