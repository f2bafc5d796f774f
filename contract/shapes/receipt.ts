/** Checking a downloaded delivery receipt (POST /api/receipts/verify): what was sent and what the check found. */
import type { DocumentInfo } from './document.ts';

/**
 * The longest receipt file the check reads, in characters. A receipt holds one document's Info, at most four events
 * and one checkpoint: a few kilobytes; 32 KiB leaves room for long names and descriptions and stays under the API's
 * 64 KiB cap on a JSON body.
 */
export const RECEIPT_FILE_MAX_CHARS = 32 * 1024;

/** POST /api/receipts/verify body: the receipt file's text, exactly as downloaded. */
export interface ReceiptVerifyRequest {
  content: string;
}

/** Why a receipt does not verify, for the text in the reader's language. */
export const RECEIPT_FAILURES = [
  /** Not JSON at all. */
  'not_json',
  /** JSON, but not a signed receipt. */
  'not_a_receipt',
  /** Not byte for byte the form it was signed in. */
  'changed',
  /** Signed by a key that is not the portal's. */
  'other_key',
  /** The signature does not match the content. */
  'bad_signature',
] as const;
export type ReceiptFailure = typeof RECEIPT_FAILURES[number];

/** One of the receipt's events, and whether the receipt's signed checkpoint covers it. */
export interface ReceiptCheckEvent {
  auditId: string;
  /** document_uploaded, document_shown, document_viewed or document_printed. */
  event: string;
  /** ISO 8601. */
  at: string;
  /** The row's place in the audit chain; null for a row written before the chain. */
  chainPosition: number | null;
  /** The checkpoint holds and its size reaches the row's place. */
  covered: boolean;
}

/** A receipt that verifies: what it says, signed by the portal's key. */
export interface ReceiptValid {
  valid: true;
  document: DocumentInfo;
  /** ISO 8601: when the receipt was made. */
  issuedAt: string;
  /** The signing key's fingerprint (GET /api/audit/public-key `fingerprint`). */
  keyFingerprint: string;
  /** The signed checkpoint the receipt encloses; null when it was made before the first. */
  checkpoint: {
    /** ISO 8601. */
    signedAt: string;
    /** Audit rows the checkpoint covers. */
    size: number;
    /** Its signature holds, by the same key. */
    holds: boolean;
  } | null;
  events: ReceiptCheckEvent[];
}

/** A receipt that does not verify, and why. */
export interface ReceiptInvalid {
  valid: false;
  reasonCode: ReceiptFailure;
  /** The reason in English words (the command line's). */
  reason: string;
}

export type ReceiptCheckResult = ReceiptValid | ReceiptInvalid;

/** POST /api/receipts/verify answer. */
export interface ReceiptCheckAnswer {
  success: true;
  data: ReceiptCheckResult;
}
