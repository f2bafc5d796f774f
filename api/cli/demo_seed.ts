/**
 * The demo data: entity `default` and one account per role (README lists them).
 * Runs only on an empty database, in one transaction.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { BlobStore } from '../blobs/types.ts';
import type { Sql } from '../db/client.ts';
import { insert_audit_event } from '../db/audit.ts';
import { insert_document } from '../db/documents.ts';
import { put_setting } from '../db/settings.ts';
import { insert_user, type NewUser } from '../db/users.ts';
import { hashSecret } from '../domain/passwords.ts';

export const DEMO_ACCOUNTS = [
  {
    role: 'admin',
    username: 'admin@demo.test',
    secret: 'Demo-Admin-2026!',
    firstName: 'Ada',
    lastName: 'Admin',
  },
  {
    role: 'approver',
    username: 'approver@demo.test',
    secret: 'Demo-Approver-2026!',
    firstName: 'Avery',
    lastName: 'Approver',
  },
  {
    role: 'attorney',
    username: 'attorney@demo.test',
    secret: 'Demo-Attorney-2026!',
    firstName: 'Atticus',
    lastName: 'Counsel',
  },
  {
    role: 'representative',
    username: 'representative@demo.test',
    secret: 'Demo-Rep-2026!',
    firstName: 'Riley',
    lastName: 'Paralegal',
  },
  { role: 'offender', username: '100001', secret: '246810', firstName: 'John', lastName: 'Doe' },
  { role: 'offender', username: '100002', secret: '135790', firstName: 'Richard', lastName: 'Roe' },
] as const;

/** Seeds the demo entity and accounts unless any entity exists; returns whether it seeded. */
export async function seedDemo(sql: Sql): Promise<boolean> {
  const hashes = await Promise.all(
    DEMO_ACCOUNTS.map((a) => hashSecret(a.secret, undefined, { patient: true })),
  );
  return await sql.begin(async (tx) => {
    const [existing] = await tx`select 1 from entities limit 1`;
    if (existing) return false;
    const [entity] = await tx<{ id: string }[]>`
      insert into entities (name, slug, status) values ('Department of Corrections', 'default', 'active') returning id`;
    let attorneyId: string | null = null;
    for (const [i, account] of DEMO_ACCOUNTS.entries()) {
      const staff = account.role !== 'offender';
      const user: NewUser = {
        entityId: entity.id,
        role: account.role,
        email: staff ? account.username : null,
        docNumber: staff ? null : account.username,
        firstName: account.firstName,
        lastName: account.lastName,
        passwordHash: hashes[i],
        barNumber: account.role === 'attorney' ? 'MO12345' : null,
        barState: account.role === 'attorney' ? 'MO' : null,
        supervisingAttorneyId: account.role === 'representative' ? attorneyId : null,
        // The demo's link is already confirmed, as if the attorney had accepted it (migration 0010).
        supervisorAccepted: account.role === 'representative',
      };
      const created = await insert_user(tx, user);
      if (!created.ok) throw new Error(`demo seed: ${account.username} already exists`);
      if (account.role === 'attorney') attorneyId = created.id;
    }
    // The demo shows every portal with its password alone (the start banner says so); a new database otherwise
    // requires a second factor of admins and approvers (contract/settings.ts).
    await put_setting(tx, 'mfa_required_roles', { type: 'text', value: '' });
    // The append-only log keeps that this installation once had the demo's published passwords, whatever
    // happens to the accounts later (docs/operations.md, "Was it ever seeded with the demo?").
    await insert_audit_event(tx, {
      userId: null,
      eventType: 'demo_data_seeded',
      resourceType: 'entity',
      resourceId: entity.id,
      ipAddress: null,
      eventData: { accounts: DEMO_ACCOUNTS.map((a) => a.username) },
    });
    return true;
  });
}

/** The demo mail: what the demo attorney and representative sent to offender 100001. */
const DEMO_DOCUMENTS = [
  {
    from: 'attorney@demo.test',
    title: 'Case status update',
    description: 'Summary of the hearing and next steps.',
    pages: 2,
  },
  {
    from: 'attorney@demo.test',
    title: 'Plea agreement draft',
    description: 'Please read before our call.',
    pages: 4,
  },
  {
    from: 'representative@demo.test',
    title: 'Visit schedule',
    description: 'Dates for the next legal visits.',
    pages: 1,
  },
] as const;

/** A small real PDF with a line of text per page. */
async function demoPdf(title: string, pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.setTitle(title);
  doc.setAuthor('Demo Law Office');
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([612, 792]);
    page.drawText(title, { x: 72, y: 720, size: 20, font });
    page.drawText(`Page ${i} of ${pages}. Demo document: privileged legal mail.`, {
      x: 72,
      y: 690,
      size: 12,
      font,
    });
  }
  return await doc.save();
}

/** Seeds the demo documents (blob first, row second); call right after `seedDemo` returned true. */
export async function seedDemoDocuments(sql: Sql, blobs: BlobStore): Promise<void> {
  const [recipient] = await sql<{ id: string; entity_id: string }[]>`
    select id, entity_id from users where role = 'offender' and doc_number = '100001'`;
  if (!recipient) return;
  for (const d of DEMO_DOCUMENTS) {
    const [sender] = await sql<{ id: string }[]>`select id from users where email = ${d.from}`;
    const bytes = await demoPdf(d.title, d.pages);
    const blob = await blobs.put(new Blob([bytes as BlobPart]).stream());
    await insert_document(sql, {
      entityId: recipient.entity_id,
      senderId: sender.id,
      recipientId: recipient.id,
      title: d.title,
      description: d.description,
      fileName: `${d.title.toLowerCase().replace(/\W+/g, '-')}.pdf`,
      size: blob.size,
      sha256: blob.sha256,
      pages: d.pages,
      encrypted: false,
      printAllowed: true,
      metadata: {
        title: d.title,
        author: 'Demo Law Office',
        subject: null,
        keywords: null,
        creator: 'pdf-lib',
        producer: 'pdf-lib',
        creationDate: new Date().toISOString(),
        modDate: new Date().toISOString(),
        pdfVersion: '1.7',
      },
    });
  }
}
