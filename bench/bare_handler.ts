/**
 * The floor bench/latency.ts compares the API against: a bare `Deno.serve` with postgres.js running the same
 * queries as the API's list endpoints (the same api/db functions, the same pool size), with no session check, no
 * middleware and no mapping of the rows. Started by bench/latency.ts as its own process, so it does not share a
 * JavaScript thread with the load loop:
 *
 *   DATABASE_URL=postgres://… deno run -A bench/bare_handler.ts     # prints "bare handler on http://…"
 *
 *   GET /offender-list?id=<user id>      list_documents_for_recipient
 *   GET /audit-by-type?type=<event type> list_audit_logs, one page of 51
 */
import { list_audit_logs } from '../api/db/audit_search.ts';
import { connectPostgres } from '../api/db/client.ts';
import { list_documents_for_recipient } from '../api/db/documents.ts';

const url = Deno.env.get('DATABASE_URL');
if (!url) {
  console.error('bare_handler needs DATABASE_URL');
  Deno.exit(1);
}
const { sql } = connectPostgres(url);

Deno.serve({
  hostname: '127.0.0.1',
  port: 0,
  onListen: ({ port }) => console.log(`bare handler on http://localhost:${port}`),
}, async (request) => {
  const u = new URL(request.url);
  if (u.pathname === '/offender-list') {
    return Response.json({ documents: await list_documents_for_recipient(sql, u.searchParams.get('id')!) });
  }
  if (u.pathname === '/audit-by-type') {
    const type = u.searchParams.get('type')!;
    return Response.json({ logs: await list_audit_logs(sql, { eventType: type }, { limit: 51 }) });
  }
  return new Response('not found', { status: 404 });
});
