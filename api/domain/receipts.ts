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

/**
 * Checks a receipt file's text offline: its canonical form, its signature, and (with `trustedKey`) that the key
 * is the portal's. Says which events the enclosed checkpoint covers.
 */
export async function checkReceipt(text: string, trustedKey?: string): Promise<ReceiptCheck> {
  let parsed: SignedReceipt;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the file is not a receipt (not JSON): it was damaged or changed' };
  }
  if (!parsed?.receipt || typeof parsed.publicKey !== 'string' || typeof parsed.signature !== 'string') {
    return { ok: false, reason: 'the file is not a signed receipt' };
  }
  if (canonicalJson(parsed) + '\n' !== text) {
    return { ok: false, reason: 'the file is not in the form it was signed in: it was changed' };
  }
  if (trustedKey && trustedKey !== parsed.publicKey) {
    return {
      ok: false,
      reason: `the receipt is signed by another key (${await keyFingerprint(
        parsed.publicKey,
      )}), not ${await keyFingerprint(
        trustedKey,
      )}`,
    };
  }
  if (!(await verifySignature(parsed.publicKey, receiptMessage(parsed.receipt), parsed.signature))) {
    return { ok: false, reason: 'the signature does not match the receipt: it was changed' };
  }
  const r = parsed.receipt;
  const lines = [
    `document ${r.document.documentid}: "${r.document.name}" to ${r.document.to}, SHA-256 ${r.document.sha256}, ${r.document.pages} page(s)`,
    `signed ${r.issuedAt} by key ${await keyFingerprint(parsed.publicKey)}${
      trustedKey ? ' (the key given)' : ''
    }`,
  ];
  const checkpoint = r.checkpoint;
  const checkpointHolds = checkpoint
    ? checkpoint.publicKey === parsed.publicKey &&
      await verifySignature(checkpoint.publicKey, checkpointMessage(checkpoint), checkpoint.signature)
    : false;
  if (checkpoint) {
    lines.push(
      checkpointHolds
        ? `checkpoint ${checkpoint.signedAt}: ${checkpoint.size} audit rows, signature holds`
        : `checkpoint ${checkpoint.signedAt}: its signature does not hold`,
    );
  }
  for (const e of r.events) {
    const covered = checkpointHolds && e.chainPosition !== null && e.chainPosition <= checkpoint!.size;
    lines.push(
      `${e.event} ${e.at} (audit row ${e.auditId}${
        e.chainPosition === null ? '' : `, chain position ${e.chainPosition}`
      }): ${covered ? 'covered by the checkpoint' : 'not yet covered by a checkpoint'}`,
    );
  }
  if (!trustedKey) {
    lines.push("compare the key with the portal's (GET /api/audit/public-key), or pass --public-key");
  }
  return { ok: true, lines };
}
