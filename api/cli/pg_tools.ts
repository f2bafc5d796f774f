/**
 * Running Debian's PostgreSQL client tools (pg_dump, pg_restore) against DATABASE_URL. The connection goes
 * in libpq's environment variables, not the command line, so a password never shows in `ps`.
 */

/** libpq's environment for a postgres:// URL. */
export function libpqEnv(url: string): Record<string, string> {
  const u = new URL(url);
  const env: Record<string, string> = {
    PGHOST: decodeURIComponent(u.hostname || 'localhost').replace(/^\[|\]$/g, ''),
    PGPORT: u.port || '5432',
    PGDATABASE: decodeURIComponent(u.pathname.slice(1)),
  };
  if (u.username) env.PGUSER = decodeURIComponent(u.username);
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  const sslmode = u.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  // A host given as ?host=/run/postgresql (a Unix socket) wins over the URL's host.
  const host = u.searchParams.get('host');
  if (host) env.PGHOST = host;
  return env;
}

/** Runs a PostgreSQL tool; throws with what it printed when it fails or is not installed. */
export async function runPgTool(tool: string, args: string[], databaseUrl: string): Promise<void> {
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command(tool, { args, env: libpqEnv(databaseUrl), stdout: 'piped', stderr: 'piped' })
      .output();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(
        `${tool} is not installed: apt-get install postgresql-client (the same major version as the server or newer)`,
      );
    }
    throw error;
  }
  if (!out.success) {
    const text = new TextDecoder();
    throw new Error(`${tool} failed: ${text.decode(out.stderr).trim() || text.decode(out.stdout).trim()}`);
  }
}

/** Copies every file under `from` into `to`, keeping the layout; skips the folders in `skip`. Returns the count. */
export async function copyTree(from: string, to: string, skip: string[] = []): Promise<number> {
  let copied = 0;
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (skip.includes(entry.name)) continue;
    if (entry.isDirectory) copied += await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else if (entry.isFile) {
      await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
      copied++;
    }
  }
  return copied;
}

/** Whether a blob file exists in an fs store's layout (blobs/ab/cd/<sha256>). */
export async function hasBlobFile(root: string, sha256: string): Promise<boolean> {
  try {
    return (await Deno.stat(`${root}/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`)).isFile;
  } catch {
    return false;
  }
}
