/**
 * The floor bench/latency.ts compares the API against: a bare `Deno.serve` with postgres.js doing each JSON
 * endpoint's database work (the same api/db functions, so the same SQL) and answering the same JSON (the same
 * row-to-shape functions, so the same bytes), with no token, no session check, no middleware, no validation. Started by
 * bench/latency.ts as its own process, so it does not share a JavaScript thread with anything:
 *
 *   DATABASE_URL=postgres://… BARE_POOL=4 deno run -A bench/bare_handler.ts   # prints "bare handler on http://…"
 *
 *   GET /offender-list?id=<user id>           list_documents_for_recipient
 *   GET /attorney-list?id=<user id>           list_documents_for_attorney
 *   GET /attorney-page?id=<user id>           listSenderPage: page 1 of 10 by name, as the PWA first asks
 *   GET /users                                list_users_for_admin
 *   GET /users?q=…                            one page of 50 of the search (list_users_page_for_admin) and its
 *                                             count (count_users_for_admin), as the API answers it
 *   GET /audit?type=…&from=…&before=…&user=…  one page of 51 (list_audit_logs), the event types
 *                                             (list_audit_event_types) and the audit row the API writes for
 *                                             every page read (CJIS 5.4: the spec requires that write of the
 *                                             endpoint, so the floor pays for it too)
 *
 * BARE_POOL (default 10, the API's) sets its connection pool; bench/latency.ts tries more than one and keeps
 * the fastest, so the floor is as high as this machine allows.
 */
import { insert_audit_event } from '../api/db/audit.ts';
import { list_audit_event_types, list_audit_logs } from '../api/db/audit_search.ts';
import { connectPostgres } from '../api/db/client.ts';
import { list_documents_for_attorney, list_documents_for_recipient } from '../api/db/documents.ts';
import { count_users_for_admin, list_users_for_admin, list_users_page_for_admin } from '../api/db/users.ts';
import { listSenderPage, toAttorneyDocument, toOffenderDocument } from '../api/domain/documents.ts';
import { toAdminUser } from '../api/domain/user_admin.ts';
import { SUCCESS } from '../api/http/messages.ts';

const url = Deno.env.get('DATABASE_URL');
if (!url) {
  console.error('bare_handler needs DATABASE_URL');
  Deno.exit(1);
}
const { sql } = connectPostgres(url, { max: Number(Deno.env.get('BARE_POOL') ?? 10) });
// The admin's lists are their own entity's: the installation's first, where the seed puts everyone.
const [{ id: entityId }] = await sql<{ id: string }[]>`select id from entities where slug = 'default'`;

Deno.serve({
  hostname: '127.0.0.1',
  port: 0,
  onListen: ({ port }) => console.log(`bare handler on http://localhost:${port}`),
}, async (request) => {
  const u = new URL(request.url);
  const q = (name: string) => u.searchParams.get(name) ?? undefined;
  switch (u.pathname) {
    case '/offender-list':
      return Response.json({
        success: true,
        documents: (await list_documents_for_recipient(sql, q('id')!)).map(toOffenderDocument),
      });
    case '/attorney-list':
      return Response.json({
        success: true,
        message: SUCCESS.documentsListed,
        documents: (await list_documents_for_attorney(sql, q('id')!)).map(toAttorneyDocument),
      });
    case '/attorney-page': {
      const page = await listSenderPage(sql, { attorneyId: q('id')! }, {
        sort: 'name',
        order: 'asc',
        pageSize: 10,
        start: { kind: 'first' },
      });
      return Response.json({
        success: true,
        message: SUCCESS.documentsListed,
        ...page,
        documents: page.documents.map(toAttorneyDocument),
      });
    }
    case '/users':
      if (q('q') !== undefined) {
        // The search page as the API answers it: one more row than shown tells whether a next page exists, and
        // the count beside it is the screen's 'Showing X of Y users' (the spec's footer), so the floor pays for it
        // too.
        const filter = { entityId, search: q('q') };
        const [rows, total] = await Promise.all([
          list_users_page_for_admin(sql, { ...filter, limit: 51 }),
          count_users_for_admin(sql, filter),
        ]);
        const users = rows.slice(0, 50).map(toAdminUser);
        return Response.json({
          success: true,
          users,
          nextCursor: rows.length > 50 ? users[49].id : null,
          total,
        });
      }
      return Response.json({
        success: true,
        users: (await list_users_for_admin(sql, entityId)).map(toAdminUser),
      });
    case '/audit': {
      const from = q('from');
      const before = q('before');
      const filter = {
        scope: { entityId, unattributed: true },
        eventType: q('type'),
        userId: q('user'),
        from: from ? new Date(from) : undefined,
        before: before ? new Date(before) : undefined,
      };
      const logs = await list_audit_logs(sql, filter, { limit: 51 });
      const eventTypes = await list_audit_event_types(sql);
      await insert_audit_event(sql, {
        userId: null,
        eventType: 'audit_logs_viewed',
        resourceType: 'audit_logs',
        ipAddress: '127.0.0.1',
        eventData: { filters: Object.fromEntries(u.searchParams), rows: logs.length },
      });
      const page = logs.slice(0, 50).map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
      return Response.json({
        success: true,
        data: { logs: page, nextCursor: logs.length > 50 ? page[49].id : null, eventTypes },
      });
    }
  }
  return new Response('not found', { status: 404 });
});
