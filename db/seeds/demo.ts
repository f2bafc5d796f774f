/**
 * The demo data: entity `default` and one account per role (README lists them).
 * Runs only on an empty database, in one transaction.
 */
import type { Sql } from '../../api/db/client.ts';
import { insert_user, type NewUser } from '../../api/db/users.ts';
import { hashSecret } from '../../api/domain/passwords.ts';

export const DEMO_ACCOUNTS = [
  { role: 'admin', username: 'admin@demo.test', secret: 'Demo-Admin-2026!', firstName: 'Ada', lastName: 'Admin' },
  { role: 'approver', username: 'approver@demo.test', secret: 'Demo-Approver-2026!', firstName: 'Avery', lastName: 'Approver' },
  { role: 'attorney', username: 'attorney@demo.test', secret: 'Demo-Attorney-2026!', firstName: 'Atticus', lastName: 'Counsel' },
  { role: 'representative', username: 'representative@demo.test', secret: 'Demo-Rep-2026!', firstName: 'Riley', lastName: 'Paralegal' },
  { role: 'offender', username: '100001', secret: '246810', firstName: 'John', lastName: 'Doe' },
  { role: 'offender', username: '100002', secret: '135790', firstName: 'Richard', lastName: 'Roe' },
] as const;

/** Seeds the demo entity and accounts unless any entity exists; returns whether it seeded. */
export async function seedDemo(sql: Sql): Promise<boolean> {
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((a) => hashSecret(a.secret)));
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
      };
      const created = await insert_user(tx, user);
      if (!created.ok) throw new Error(`demo seed: ${account.username} already exists`);
      if (account.role === 'attorney') attorneyId = created.id;
    }
    return true;
  });
}
