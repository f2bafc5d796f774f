/** The answer of a roster import (POST /api/admin/offenders/import `data`, and the CLI's report). */

export interface RosterReportRow {
  /** The line of the CSV file (the header is line 1). */
  line: number;
  docNumber: string;
  outcome: 'added' | 'updated' | 'rejected';
  /** Why a row was rejected. */
  reason?: string;
}

export interface RosterReport {
  added: number;
  updated: number;
  rejected: number;
  rows: RosterReportRow[];
}
