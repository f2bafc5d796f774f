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

/**
 * The demo's accounts, each with its secret's PBKDF2 hash made once (`hashSecret`, 600,000 iterations, a salt of
 * its own). The secrets are published in the README, so a salt drawn per installation would protect nothing, and
 * a seed that hashed them would spend about 2 s of a core at every demo start and every test database
 * (tests/api/demo_seed.test.ts checks each hash against its secret). The PINs are hashed without the pepper, as
 * a PIN from before the pepper: the first sign-in re-hashes each under the installation's own.
 */
export const DEMO_ACCOUNTS = [
  {
    role: 'admin',
    username: 'admin@demo.test',
    secret: 'Demo-Admin-2026!',
    hash: 'pbkdf2-sha256$600000$W2QATzRbtutA+s7ZhHtl+A==$gvWgD6cQ6fYyx1VHug9Lsdhw38n/JatwYZqkcroeCVA=',
    firstName: 'Ada',
    lastName: 'Admin',
  },
  {
    role: 'approver',
    username: 'approver@demo.test',
    secret: 'Demo-Approver-2026!',
    hash: 'pbkdf2-sha256$600000$dFMO8Hn62rfLwG6WRZpXDw==$7/xGSaDotwaJcoqCvLMGiviXZxX1vq9SYqBYuikUwF4=',
    firstName: 'Avery',
    lastName: 'Approver',
  },
  {
    role: 'attorney',
    username: 'attorney@demo.test',
    secret: 'Demo-Attorney-2026!',
    hash: 'pbkdf2-sha256$600000$xEgDqdQoqGqj2krc8dYAhg==$GVTRI2N+jYRMqsWOhWNwQwMThG97ZsevvuJFRQnwQ5Q=',
    firstName: 'Atticus',
    lastName: 'Counsel',
  },
  {
    role: 'representative',
    username: 'representative@demo.test',
    secret: 'Demo-Rep-2026!',
    hash: 'pbkdf2-sha256$600000$bjH2q4VQd00ZfF64jO9IrQ==$R/2e3SgN5Oj0cxAOpv9aUTYd7QHHiT5Q+RhR0dh7f8E=',
    firstName: 'Riley',
    lastName: 'Paralegal',
  },
  {
    role: 'offender',
    username: '100001',
    secret: '246810',
    hash: 'pbkdf2-sha256$600000$619mdwnnq2+zstV+gRpRvg==$crF7YZ50DFCH99UbTro2WScGdrO6cxKOXflSVdCHjLU=',
    firstName: 'John',
    lastName: 'Doe',
  },
  {
    role: 'offender',
    username: '100002',
    secret: '135790',
    hash: 'pbkdf2-sha256$600000$oYic8cGh5v2ibTM3a1AV/Q==$HggR5UhBKVi9vwPbhsQ4FuHLpRhoU4IO8Tq68MVrw9E=',
    firstName: 'Richard',
    lastName: 'Roe',
  },
] as const;

/** Seeds the demo entity and accounts unless any entity exists; returns whether it seeded. */
export async function seedDemo(sql: Sql): Promise<boolean> {
  return await sql.begin(async (tx) => {
    const [existing] = await tx`select 1 from entities limit 1`;
    if (existing) return false;
    const [entity] = await tx<{ id: string }[]>`
      insert into entities (name, slug, status) values ('Department of Corrections', 'default', 'active') returning id`;
    let attorneyId: string | null = null;
    for (const account of DEMO_ACCOUNTS) {
      const staff = account.role !== 'offender';
      const user: NewUser = {
        entityId: entity.id,
        role: account.role,
        email: staff ? account.username : null,
        docNumber: staff ? null : account.username,
        firstName: account.firstName,
        lastName: account.lastName,
        passwordHash: account.hash,
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
