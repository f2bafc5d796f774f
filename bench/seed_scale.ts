/**
 * `npm run seed:scale`: a department-sized database for the latency benchmarks. PostgreSQL only.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/lmp_scale npm run seed:scale
 *   SCALE=0.01 …            # a hundredth of every count (the test runs SCALE=0.001)
 *
 * Creates the database when it does not exist (or fills an empty one), applies the schema with the project's
 * own migrate(), then fills it with set-based SQL (`insert … select … from generate_series`), one transaction:
 * 100,000 offenders, 1,000 attorneys and 1,000 representatives (a third of them with an accepted supervisor link,
 * a third with a pending one), 1,000,000 documents over the retention window of which 20,000 sent by one
 * attorney (the busiest sender), and 10,000,000 audit rows over seven years. The secondary indexes of documents
 * and audit_logs are dropped before their insert and rebuilt after it from their own definitions (pg_indexes),
 * which sorts once instead of inserting ten million random keys into a B-tree.
 *
 * Every document row points at one of four real PDFs put through the project's blob store (BLOB_STORE, default
 * `fs` under DATA_DIR/blobs, default ./data; `postgres` keeps them as chunks in the database), so the API can
 * list, view and print them when it runs with the same BLOB_STORE and DATA_DIR.
 *
 * Secrets: ONE password hash (every staff account) and ONE peppered PIN hash (every offender), computed once
 * with api/domain/passwords.ts at the full work factor. The pepper is PIN_PEPPER, or a fixed benchmark pepper
 * the script prints: the API must run with the same PIN_PEPPER for the seeded offenders to sign in.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createBlobStore } from '../api/blobs/store.ts';
import { connectPostgres, type Database, type Sql, type Tx } from '../api/db/client.ts';
import { migrate } from '../api/db/migrate.ts';
import { put_setting } from '../api/db/settings.ts';
import { hashPin, hashSecret, loadPinPepper } from '../api/domain/passwords.ts';

/** How many rows of each kind (SCALE multiplies the department-sized defaults). */
export interface ScaleCounts {
  offenders: number;
  attorneys: number;
  representatives: number;
  documents: number;
  /** Of `documents`, how many the busiest sender sent. */
  busiestDocuments: number;
  auditRows: number;
}

/** The department-sized counts times `scale`, with the minimums that keep every kind of row present. */
export function scaleCounts(scale: number): ScaleCounts {
  const n = (full: number, min: number) => Math.max(min, Math.round(full * scale));
  const busiestDocuments = n(20_000, 5);
  return {
    offenders: n(100_000, 2),
    attorneys: n(1_000, 2),
    representatives: n(1_000, 3),
    busiestDocuments,
    documents: Math.max(n(1_000_000, 0), busiestDocuments + 10),
    auditRows: n(10_000_000, 10),
  };
}

/** The seeded sign-ins. */
export const SCALE_ACCOUNTS = {
  busiestSender: 'pd.busiest@scale.test',
  admin: 'admin@scale.test',
  staffPassword: 'Scale-Seed-2026!',
  /** Offenders are 300001, 300002, …; every 50th is deactivated. */
  firstOffender: '300001',
  offenderPin: '246810',
} as const;

/** Used when PIN_PEPPER is unset: benchmark data only, never a deployment's pepper. */
export const SCALE_DEFAULT_PEPPER = 'scale-seed-pin-pepper-for-benchmarks-only';

/** Documents are spread over this many days: inside the 90-day default retention, so every one is listed. */
const DOCUMENT_SPAN_DAYS = 88;
/** Audit rows are kept for years (no purge): spread over seven. */
const AUDIT_SPAN_DAYS = 7 * 365;

export interface SeedStep {
  step: string;
  rows: number;
  ms: number;
}

export interface SeedOptions {
  counts: ScaleCounts;
  pepper: Uint8Array;
  blobStore: 'fs' | 'postgres';
  dataDir: string;
  log?: (line: string) => void;
}

const FIRST_NAMES = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
]; // deno-fmt-ignore
const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
]; // deno-fmt-ignore

/** Event types as the API writes them, each with its resource type and how many in 100 rows carry it. */
const AUDIT_EVENTS: [string, string, number][] = [
  ['user_login', 'user', 25],
  ['session_ended', 'session', 20],
  ['document_viewed', 'document', 25],
  ['document_printed', 'document', 5],
  ['document_uploaded', 'document', 10],
  ['login_failed', 'user', 6],
  ['session_expired', 'session', 5],
  ['document_prefetched', 'document', 2],
  ['document_deleted', 'document', 1],
  ['password_changed', 'user', 1],
];

/** A small real PDF with a line of text per page. */
async function seedPdf(title: string, pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.setTitle(title);
  doc.setAuthor('Scale Seed Law Office');
  for (let i = 1; i <= pages; i++) {
    doc.addPage([612, 792]).drawText(`${title}: page ${i} of ${pages}`, { x: 72, y: 720, size: 16, font });
  }
  return await doc.save();
}

const BLOB_TITLES = [['Case status update', 1], ['Plea agreement draft', 4], ['Discovery index', 2], [
  'Hearing notice',
  1,
]] as const;

/**
 * Fills an empty, migrated database (refuses one with users); returns the time and row count of each step.
 * `db` must allow one transaction at a time: everything but the blobs and the final VACUUM is one transaction,
 * so a failure leaves the database empty.
 */
export async function seedScale(db: Database, options: SeedOptions): Promise<SeedStep[]> {
  const { counts, log = () => {} } = options;
  const sql = db.sql;
  const [{ users }] = await sql<{ users: number }[]>`select count(*)::int as users from users`;
  const [{ entities }] = await sql<{ entities: number }[]>`select count(*)::int as entities from entities`;
  if (users > 0 || entities > 0) {
    throw new SeedRefused('the database already has users or entities: seed:scale fills only an empty one');
  }
  const steps: SeedStep[] = [];
  const timed = async (step: string, fn: () => Promise<number>) => {
    const started = performance.now();
    const rows = await fn();
    const ms = performance.now() - started;
    steps.push({ step, rows, ms });
    log(
      `  ${step.padEnd(34)} ${rows.toLocaleString('en-US').padStart(11)} rows  ${(ms / 1000).toFixed(1)} s`,
    );
  };

  let passwordHash = '';
  let pinHash = '';
  await timed('hashes (one password, one PIN)', async () => {
    [passwordHash, pinHash] = await Promise.all([
      hashSecret(SCALE_ACCOUNTS.staffPassword, undefined, { patient: true }),
      hashPin(SCALE_ACCOUNTS.offenderPin, { pepper: options.pepper, patient: true }),
    ]);
    return 2;
  });

  // Blobs first, rows second (the store's contract): four real PDFs every document row shares.
  const blobs: { sha256: string; size: number; pages: number; title: string }[] = [];
  await timed(`blobs (${options.blobStore})`, async () => {
    const store = createBlobStore({ blobStore: options.blobStore, dataDir: options.dataDir }, db);
    for (const [title, pages] of BLOB_TITLES) {
      const stored = await store.put(new Blob([await seedPdf(title, pages) as BlobPart]).stream());
      blobs.push({ ...stored, pages, title });
    }
    return blobs.length;
  });

  const started = performance.now();
  await sql.begin(async (tx) => {
    await tx`set local maintenance_work_mem = '256MB'`;
    const [entity] = await tx<{ id: string }[]>`
      insert into entities (name, slug, status) values ('Department of Corrections (scale seed)', 'default', 'active')
      returning id`;
    // The benchmarks sign in with passwords alone, as the demo does (api/cli/demo_seed.ts).
    await put_setting(tx, 'mfa_required_roles', { type: 'text', value: '' });

    await timed('users: offenders', async () => {
      const rows = await tx`
        insert into users (entity_id, role, status, doc_number, first_name, last_name, password_hash, created_at)
        select ${entity.id}::uuid, 'offender', case when n % 50 = 0 then 'deactivated' else 'active' end,
               (300000 + n)::text, (${FIRST_NAMES}::text[])[1 + n % ${FIRST_NAMES.length}],
               (${LAST_NAMES}::text[])[1 + (n / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}],
               ${pinHash}::text, now() - make_interval(mins => n)
        from generate_series(1, ${counts.offenders}) n`;
      return rows.count;
    });

    await timed('users: staff', async () => {
      const rows = await tx`
        insert into users (entity_id, role, email, first_name, last_name, password_hash, bar_number, bar_state,
                           created_at)
        select ${entity.id}::uuid, s.role, s.email, s.first_name, s.last_name, ${passwordHash}::text, s.bar_number,
               s.bar_state,
               now() - interval '200 days' + make_interval(mins => s.n)
        from (
          select 0 as n, 'admin'::text as role, ${SCALE_ACCOUNTS.admin}::text as email, 'Ada'::text as first_name,
                 'Admin'::text as last_name, null::text as bar_number, null::text as bar_state
          union all select 1, 'approver', 'approver@scale.test', 'Avery', 'Approver', null, null
          union all select 2, 'attorney', ${SCALE_ACCOUNTS.busiestSender}::text, 'Pat', 'Busiest', 'PD00001', 'MO'
          union all
          select 2 + n, 'attorney', 'attorney' || n || '@scale.test', (${FIRST_NAMES}::text[])[1 + n % 20],
                 (${LAST_NAMES}::text[])[1 + n % 30], 'B' || lpad(n::text, 6, '0'), 'MO'
          from generate_series(1, ${counts.attorneys - 1}) n
          union all
          select 100000 + n, 'representative', 'rep' || n || '@scale.test', (${FIRST_NAMES}::text[])[1 + n % 20],
                 (${LAST_NAMES}::text[])[1 + (n + 7) % 30], 'R' || lpad(n::text, 6, '0'), 'MO'
          from generate_series(1, ${counts.representatives}) n
        ) s`;
      return rows.count;
    });

    // Numbered copies of the ids the inserts below pick from by `g % count`.
    await tx`create temp table seed_attorneys on commit drop as
      select row_number() over (order by email) - 1 as n, id from users
      where role = 'attorney' and email <> ${SCALE_ACCOUNTS.busiestSender}`;
    await tx`create temp table seed_representatives on commit drop as
      select row_number() over (order by email) - 1 as n, id from users where role = 'representative'`;

    await timed('supervisor links (1/3 accepted)', async () => {
      // A third accepted, a third pending, a third alone; never the busiest sender, whose list stays exactly
      // what they sent.
      const rows = await tx`
        update users u set supervising_attorney_id = a.id, supervisor_proposed_at = now() - interval '120 days',
               supervisor_accepted_at = case when r.n % 3 = 0 then now() - interval '119 days' end
        from seed_representatives r join seed_attorneys a on a.n = r.n % ${counts.attorneys - 1}
        where u.id = r.id and r.n % 3 <> 2`;
      return rows.count;
    });

    await tx`create temp table seed_offenders on commit drop as
      select row_number() over (order by doc_number) - 1 as n, id from users
      where role = 'offender' and status = 'active'`;
    await tx`create temp table seed_senders on commit drop as
      select row_number() over (order by role, email) - 1 as n, id,
             case when role = 'representative' and supervisor_accepted_at is not null
               then supervising_attorney_id end as supervisor_id
      from users where role in ('attorney', 'representative') and email <> ${SCALE_ACCOUNTS.busiestSender}`;
    await tx`create temp table seed_blobs on commit drop as
      select * from jsonb_to_recordset(${tx.json(blobs.map((b, n) => ({ ...b, n })) as never)}::jsonb)
        as b(n int, sha256 text, size bigint, pages int, title text)`;
    await tx`create temp table seed_users on commit drop as
      select row_number() over (order by id) - 1 as n, id from users`;
    for (const t of ['seed_offenders', 'seed_senders', 'seed_blobs', 'seed_users']) {
      await tx.unsafe(`alter table ${t} add primary key (n); analyze ${t}`);
    }
    const [{ activeOffenders }] = await tx<{ activeOffenders: number }[]>`
      select count(*)::int as "activeOffenders" from seed_offenders`;
    const senders = counts.attorneys - 1 + counts.representatives;
    const [busiest] = await tx<{ id: string }[]>`
      select id from users where email = ${SCALE_ACCOUNTS.busiestSender}`;

    const docIndexes = await dropSecondaryIndexes(tx, 'documents');
    await timed('documents', async () => {
      const span = DOCUMENT_SPAN_DAYS * 86400;
      const b = counts.busiestDocuments;
      const d = counts.documents;
      const rows = await tx`
        insert into documents (entity_id, sender_id, recipient_id, title, description, file_name, size, sha256, pages,
                               encrypted, print_allowed, metadata, uploaded_at, viewed_at, supervising_attorney_id)
        select ${entity.id}::uuid, case when g <= ${b} then ${busiest.id}::uuid else s.id end, o.id,
               bl.title || ' ' || g, case when g % 3 = 0 then 'Please read before our call.' end,
               lower(replace(bl.title, ' ', '-')) || '-' || g || '.pdf', bl.size, bl.sha256, bl.pages, false,
               g % 10 <> 0,
               jsonb_build_object('title', bl.title, 'author', 'Scale Seed Law Office', 'subject', null,
                                  'keywords', null, 'creator', 'pdf-lib', 'producer', 'pdf-lib',
                                  'creationDate', null, 'modDate', null, 'pdfVersion', '1.7'),
               t.uploaded_at,
               case when g % 5 < 3 and t.uploaded_at < now() - interval '1 day' then t.uploaded_at + interval '1 day'
               end,
               case when g > ${b} then s.supervisor_id end
        from generate_series(1, ${d}) g
        cross join lateral (select now() - make_interval(secs => ${span}::float8 *
          case when g <= ${b} then g::float8 / ${b} else (g - ${b})::float8 / ${Math.max(1, d - b)} end)
          as uploaded_at) t
        join seed_offenders o on o.n = g % ${activeOffenders}
        join seed_blobs bl on bl.n = g % ${blobs.length}
        left join seed_senders s on s.n = g % ${senders}`;
      return rows.count;
    });
    await timed(`documents: ${docIndexes.length} indexes rebuilt`, async () => {
      for (const def of docIndexes) await tx.unsafe(def);
      return counts.documents;
    });

    const auditIndexes = await dropSecondaryIndexes(tx, 'audit_logs');
    await timed('audit_logs', async () => {
      const events = AUDIT_EVENTS.flatMap(([type, resource, share]) => Array(share).fill([type, resource]));
      const [{ users: userCount }] = await tx<
        { users: number }[]
      >`select count(*)::int as users from seed_users`;
      const a = counts.auditRows;
      const step = (AUDIT_SPAN_DAYS * 86400) / a;
      // Oldest first, so ids rise with time as they do when the API appends.
      const rows = await tx`
        insert into audit_logs (created_at, user_id, event_type, resource_type, resource_id, ip_address, event_data)
        select now() - make_interval(secs => (${a} - g) * ${step}::float8), u.id, e.event_type, e.resource_type,
               case when e.resource_type = 'document' then 'seed-document-' || g % 1000000 else u.id::text end,
               '10.' || (g / 65536) % 256 || '.' || (g / 256) % 256 || '.' || g % 256,
               jsonb_build_object('seed', true, 'n', g)
        from generate_series(1, ${a}) g
        join (select n - 1 as n, v[1] as event_type, v[2] as resource_type
              from unnest(${events.map((e) => `${e[0]}:${e[1]}`)}::text[]) with ordinality as x(e, n),
                   lateral string_to_array(x.e, ':') v) e on e.n = g % ${events.length}
        join seed_users u on u.n = (g::bigint * 7919) % ${userCount}`;
      return rows.count;
    });
    await timed(`audit_logs: ${auditIndexes.length} indexes rebuilt`, async () => {
      for (const def of auditIndexes) await tx.unsafe(def);
      return counts.auditRows;
    });
  });
  steps.push({ step: 'transaction total', rows: 0, ms: performance.now() - started });
  log(
    `  ${'(one transaction, committed)'.padEnd(34)} ${''.padStart(11)}       ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );

  // Hint bits, the visibility map and planner statistics, as an operator does after a bulk load.
  await timed('vacuum analyze', async () => {
    await sql`vacuum (analyze) users, documents, audit_logs`;
    return 0;
  });
  return steps;
}

/** Drops a table's indexes other than its primary key; returns their definitions, to recreate after a load. */
async function dropSecondaryIndexes(tx: Tx, table: string): Promise<string[]> {
  const rows = await tx<{ name: string; def: string }[]>`
    select i.indexname as name, i.indexdef as def from pg_indexes i
    join pg_class c on c.relname = i.indexname join pg_index x on x.indexrelid = c.oid
    where i.schemaname = 'public' and i.tablename = ${table} and not x.indisprimary`;
  for (const r of rows) await tx.unsafe(`drop index "${r.name}"`);
  return rows.map((r) => r.def);
}

/** The seed will not run here (not PostgreSQL, or not empty): a plain message, no stack. */
export class SeedRefused extends Error {}

/** Row counts of the seeded database. */
export async function countRows(sql: Sql): Promise<Record<string, number>> {
  const [row] = await sql<Record<string, number>[]>`
    select (select count(*) from users where role = 'offender')::int as offenders,
           (select count(*) from users where role = 'attorney')::int as attorneys,
           (select count(*) from users where role = 'representative')::int as representatives,
           (select count(*) from users where supervisor_accepted_at is not null)::int as accepted_links,
           (select count(*) from users)::int as users,
           (select count(*) from documents)::int as documents,
           (select count(*) from documents d join users s on s.id = d.sender_id
             where s.email = ${SCALE_ACCOUNTS.busiestSender})::int as busiest_sender_documents,
           (select count(*) from documents where supervising_attorney_id is not null)::int as shared_with_supervisor,
           (select count(distinct sha256) from documents)::int as distinct_blobs,
           (select count(*) from audit_logs)::int as audit_rows`;
  return row;
}

/** Connects to `url`, creating its database first when the server says it does not exist. */
async function connectCreating(url: string): Promise<Database> {
  const db = connectPostgres(url, { max: 1 });
  try {
    await db.sql`select 1`;
    return db;
  } catch (error) {
    await db.close();
    if ((error as { code?: string }).code !== '3D000') throw error;
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new SeedRefused(`will not create a database named "${name}"`);
  target.pathname = '/postgres';
  const admin = connectPostgres(target.toString(), { max: 1 });
  try {
    await admin.sql.unsafe(`create database "${name}"`);
  } finally {
    await admin.close();
  }
  console.log(`Created database ${name}.`);
  return connectPostgres(url, { max: 1 });
}

async function main(): Promise<number> {
  const url = Deno.env.get('DATABASE_URL') ?? Deno.env.get('BENCH_DATABASE_URL');
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    console.error(
      'seed:scale fills a PostgreSQL database only: set DATABASE_URL (or BENCH_DATABASE_URL) to ' +
        'postgres://user@host:port/database. The embedded database is not supported.',
    );
    return 1;
  }
  const scale = Number(Deno.env.get('SCALE') ?? '1');
  if (!Number.isFinite(scale) || scale <= 0 || scale > 10) {
    console.error('SCALE must be a number above 0 and at most 10 (1 = the department-sized counts).');
    return 1;
  }
  const pepperText = Deno.env.get('PIN_PEPPER') || SCALE_DEFAULT_PEPPER;
  if (pepperText.length < 32) {
    console.error('PIN_PEPPER must be at least 32 characters (as the API requires).');
    return 1;
  }
  const blobStore = Deno.env.get('BLOB_STORE') === 'postgres' ? 'postgres' : 'fs';
  const dataDir = Deno.env.get('DATA_DIR') || './data';
  const counts = scaleCounts(scale);
  let db: Database;
  try {
    db = await connectCreating(url);
  } catch (error) {
    console.error(error instanceof SeedRefused ? error.message : `cannot reach the database: ${error}`);
    return 1;
  }
  try {
    const total = performance.now();
    const migrateStarted = performance.now();
    const applied = await migrate(db.sql);
    console.log(
      `Schema: ${applied.length} migrations applied in ${
        ((performance.now() - migrateStarted) / 1000).toFixed(1)
      } s`,
    );
    console.log(
      `Seeding (SCALE=${scale}, blobs: BLOB_STORE=${blobStore}${
        blobStore === 'fs' ? ` in ${dataDir}/blobs` : ''
      })…`,
    );
    await seedScale(db, {
      counts,
      pepper: await loadPinPepper(pepperText, dataDir),
      blobStore,
      dataDir,
      log: (line) => console.log(line),
    });
    console.log(`Total: ${((performance.now() - total) / 1000).toFixed(1)} s`);
    console.log('Rows:');
    for (const [k, v] of Object.entries(await countRows(db.sql))) {
      console.log(`  ${k.padEnd(26)} ${v.toLocaleString('en-US').padStart(11)}`);
    }
    console.log(
      `Sign-ins (entity "default"): staff ${SCALE_ACCOUNTS.busiestSender}, ${SCALE_ACCOUNTS.admin} / ` +
        `${SCALE_ACCOUNTS.staffPassword}; offenders ${SCALE_ACCOUNTS.firstOffender}… / PIN ${SCALE_ACCOUNTS.offenderPin}`,
    );
    console.log(
      `Run the API with PIN_PEPPER=${pepperText}` +
        (blobStore === 'fs' ? ` DATA_DIR=${dataDir}` : ' BLOB_STORE=postgres') +
        ' for the offenders to sign in and the documents to open.',
    );
    return 0;
  } catch (error) {
    if (error instanceof SeedRefused) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}

if (import.meta.main) Deno.exit(await main());
