/**
 * Signed delivery receipts: the Info dialog's receipt (the document's SHA-256, pages, dates, recipient) with the
 * audit events that prove its delivery (its upload, and the first time it was shown, viewed and printed), each
 * with its place in the audit chain, and the latest signed checkpoint, all signed with the audit key. The file is
 * its own canonical JSON: `npm run receipt:verify FILE` checks it offline, and a file changed by one byte fails
 * (a changed value breaks the signature; any other change breaks the canonical form).
 */
import { latest_audit_checkpoint, list_first_document_events } from '../db/audit_chain.ts';
import type { Tx } from '../db/client.ts';
import type { DocumentInfo } from '../../contract/shapes/document.ts';
import { type Checkpoint, checkpointMessage } from '../blobs/audit_checkpoint_store.ts';
import { type AuditSigner, canonicalJson, keyFingerprint, verifySignature } from './audit_signing.ts';
import type { ReceiptCheckResult, ReceiptFailure, ReceiptInvalid } from '../../contract/shapes/receipt.ts';

export { canonicalJson };

/** The events a receipt proves delivery with. */
export const RECEIPT_EVENTS = [
  'document_uploaded',
  'document_shown',
  'document_viewed',
  'document_printed',
] as const;

export interface ReceiptBody {
  version: 1;
  kind: 'legal-mail-delivery-receipt';
  /** ISO 8601. */
  issuedAt: string;
  document: DocumentInfo;
  events: { auditId: string; event: string; at: string; chainPosition: number | null }[];
  /** The latest signed checkpoint when the receipt was made (null before the first). */
  checkpoint: Checkpoint | null;
}

export interface SignedReceipt {
  receipt: ReceiptBody;
  /** The audit key's public half, base64. */
  publicKey: string;
  /** Ed25519 over receiptMessage(receipt), base64. */
  signature: string;
}

function receiptMessage(receipt: ReceiptBody): string {
  return `legal-mail-portal receipt v1\n${canonicalJson(receipt)}`;
}

/** The signed receipt of a document the caller may see the Info of, as the file's text. */
export async function makeReceipt(
  sql: Tx,
  signer: AuditSigner,
  document: DocumentInfo,
): Promise<string> {
  const [events, latest] = await Promise.all([
    list_first_document_events(sql, document.documentid, RECEIPT_EVENTS),
    latest_audit_checkpoint(sql),
  ]);
  const receipt: ReceiptBody = {
    version: 1,
    kind: 'legal-mail-delivery-receipt',
    issuedAt: new Date().toISOString(),
    document,
    events: events.map((e) => ({
      auditId: e.auditId,
      event: e.eventType,
      at: e.createdAt.toISOString(),
      chainPosition: e.position,
    })),
    checkpoint: latest
      ? {
        version: 1,
        size: latest.size,
        chainHash: latest.chainHash,
        signedAt: latest.signedAt.toISOString(),
        publicKey: latest.publicKey,
        signature: latest.signature,
      }
      : null,
  };
  const signature = await signer.sign(receiptMessage(receipt));
  return canonicalJson({ receipt, publicKey: signer.publicKey, signature } satisfies SignedReceipt) + '\n';
}

export type ReceiptCheck =
  | { ok: true; lines: string[] }
  | { ok: false; reason: string };

/** The fingerprint of a key as the receipt names it; a key that is not base64 has none. */
async function fingerprintOf(publicKey: string): Promise<string> {
  try {
    return await keyFingerprint(publicKey);
  } catch {
    return 'an unreadable key';
  }
}

function invalid(reasonCode: ReceiptFailure, reason: string): ReceiptInvalid {
  return { valid: false, reasonCode, reason };
}

/**
 * Checks a receipt file's text: its canonical form, its signature, and (with `trustedKey`) that the key is the
 * portal's; says which events the enclosed checkpoint covers. Any text gives a result, never an exception: the
 * command line and POST /api/receipts/verify both run it on files from anywhere.
 */
export async function verifyReceipt(text: string, trustedKey?: string): Promise<ReceiptCheckResult> {
  let parsed: SignedReceipt;
  try {
    parsed = JSON.parse(text);
  } catch {
    return invalid('not_json', 'the file is not a receipt (not JSON): it was damaged or changed');
  }
  const r = parsed?.receipt;
  if (
    !r || typeof r !== 'object' || typeof parsed.publicKey !== 'string' ||
    typeof parsed.signature !== 'string' || !Array.isArray(r.events) || !r.document ||
    typeof r.document !== 'object'
  ) {
    return invalid('not_a_receipt', 'the file is not a signed receipt');
  }
  let canonical: string;
  try {
    canonical = canonicalJson(parsed) + '\n';
  } catch {
    // Nesting deeper than the stack allows: nothing the portal signs.
    return invalid('not_a_receipt', 'the file is not a signed receipt');
  }
  if (canonical !== text) {
    return invalid('changed', 'the file is not in the form it was signed in: it was changed');
  }
  if (trustedKey && trustedKey !== parsed.publicKey) {
    return invalid(
      'other_key',
      `the receipt is signed by another key (${await fingerprintOf(
        parsed.publicKey,
      )}), not ${await fingerprintOf(
        trustedKey,
      )}`,
    );
  }
  if (!(await verifySignature(parsed.publicKey, receiptMessage(r), parsed.signature))) {
    return invalid('bad_signature', 'the signature does not match the receipt: it was changed');
  }
  const checkpoint = r.checkpoint;
  const checkpointHolds = checkpoint
    ? checkpoint.publicKey === parsed.publicKey &&
      await verifySignature(checkpoint.publicKey, checkpointMessage(checkpoint), checkpoint.signature)
    : false;
  return {
    valid: true,
    document: r.document,
    issuedAt: r.issuedAt,
    keyFingerprint: await fingerprintOf(parsed.publicKey),
    checkpoint: checkpoint
      ? { signedAt: checkpoint.signedAt, size: checkpoint.size, holds: checkpointHolds }
      : null,
    events: r.events.map((e) => ({
      auditId: e.auditId,
      event: e.event,
      at: e.at,
      chainPosition: e.chainPosition,
      covered: checkpointHolds && e.chainPosition !== null && e.chainPosition <= checkpoint!.size,
    })),
  };
}

/** `verifyReceipt` as the command line prints it: a reason, or one line per fact. */
export async function checkReceipt(text: string, trustedKey?: string): Promise<ReceiptCheck> {
  const result = await verifyReceipt(text, trustedKey);
  if (!result.valid) return { ok: false, reason: result.reason };
  const d = result.document;
  const lines = [
    `document ${d.documentid}: "${d.name}" to ${d.to}, SHA-256 ${d.sha256}, ${d.pages} page(s)`,
    `signed ${result.issuedAt} by key ${result.keyFingerprint}${trustedKey ? ' (the key given)' : ''}`,
  ];
  const checkpoint = result.checkpoint;
  if (checkpoint) {
    lines.push(
      checkpoint.holds
        ? `checkpoint ${checkpoint.signedAt}: ${checkpoint.size} audit rows, signature holds`
        : `checkpoint ${checkpoint.signedAt}: its signature does not hold`,
    );
  }
  for (const e of result.events) {
    lines.push(
      `${e.event} ${e.at} (audit row ${e.auditId}${
        e.chainPosition === null ? '' : `, chain position ${e.chainPosition}`
      }): ${e.covered ? 'covered by the checkpoint' : 'not yet covered by a checkpoint'}`,
    );
  }
  if (!trustedKey) {
    lines.push("compare the key with the portal's (GET /api/audit/public-key), or pass --public-key");
  }
  return { ok: true, lines };
}
