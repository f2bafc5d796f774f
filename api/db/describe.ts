/** How a PostgreSQL connection string is named to an operator: never with its password. */

/** 'database "legalmail" on db.example.gov:5432 as legalmail_owner' (libpq's defaults where a part is absent). */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username);
    const host = u.hostname || u.searchParams.get('host') || 'the local socket';
    const role = u.username ? ` as ${decodeURIComponent(u.username)}` : '';
    return `PostgreSQL database "${database}" on ${host}:${u.port || '5432'}${role}`;
  } catch {
    return 'the PostgreSQL database of the connection string given (it could not be read as a URL)';
  }
}
