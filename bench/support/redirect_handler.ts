/**
 * bench:stream's references for the offload mode: a bare `Deno.serve` that answers every request with the headers
 * the API gave one reading of the bench's document (X-Accel-Redirect and all). Behind the same nginx front as the
 * API:
 *   - alone, checking and writing nothing, it shows what the front and the redirect cost by themselves;
 *   - with READING_DATABASE_URL, before answering it runs the reading's one database statement as the API's guard
 *     does (the token's session, verified once per token as api/http/verified_tokens.ts does; the session check
 *     with the document carried in it, on a pool of 2 as the API's sessionSql), and answers 404 when that finds no
 *     live session or no document. It shows what any design that asks the database on every reading costs here,
 *     so the gap between it and the API is the API's own work (router, middleware, audit hint, headers).
 *
 *   REDIRECT_HEADERS='{"x-accel-redirect":"/_blobs/…",…}' PORT=0 deno run -A bench/support/redirect_handler.ts
 *   … READING_DATABASE_URL=postgres://… SESSION_SECRET=… DATA_DIR=… deno run -A bench/support/redirect_handler.ts
 */
import postgres from 'postgres';
import type { Sql } from '../../api/db/client.ts';
import { find_active_session } from '../../api/db/sessions.ts';
import { documentToReadAlongside } from '../../api/domain/documents.ts';
import { loadSigningKey } from '../../api/domain/tokens.ts';
import { bearerToken } from '../../api/http/guard.ts';
import { verifiedSessionId } from '../../api/http/verified_tokens.ts';

const headers: Record<string, string> = JSON.parse(Deno.env.get('REDIRECT_HEADERS') ?? '{}');
const databaseUrl = Deno.env.get('READING_DATABASE_URL');

/** The reading's statement for this request: whether it found a live session and the document. */
async function readingFound(request: Request, sql: Sql, key: Uint8Array): Promise<boolean> {
  const token = bearerToken(request.headers.get('authorization') ?? undefined);
  const sessionId = token ? await verifiedSessionId(key, token) : undefined;
  if (!sessionId) return false;
  const id = new URL(request.url).pathname.split('/').pop() ?? '';
  const row = await find_active_session(sql, sessionId, documentToReadAlongside(sql, sessionId, id, 'view'));
  return Boolean(row?.alongside);
}

let handler: (request: Request) => Response | Promise<Response> = () => new Response(null, { headers });
if (databaseUrl) {
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} }) as unknown as Sql;
  const key = await loadSigningKey(Deno.env.get('SESSION_SECRET'), Deno.env.get('DATA_DIR') ?? '.');
  handler = async (request) =>
    (await readingFound(request, sql, key))
      ? new Response(null, { headers })
      : new Response(null, { status: 404 });
}

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 0),
    onListen: ({ port }) => console.log(`listening on http://localhost:${port}/`),
  },
  handler,
);
