/**
 * bench:stream's ceiling for the offload mode: a bare `Deno.serve` that answers every request with the headers the
 * API gave one reading of the bench's document (X-Accel-Redirect and all), checking and writing nothing. Behind the
 * same nginx front as the API, it shows what the front and the redirect cost by themselves, so the gap between it
 * and the API is the API's own work per request (session, authorization, audit).
 *
 *   REDIRECT_HEADERS='{"x-accel-redirect":"/_blobs/…",…}' PORT=0 deno run -A bench/support/redirect_handler.ts
 */
const headers: Record<string, string> = JSON.parse(Deno.env.get('REDIRECT_HEADERS') ?? '{}');
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 0),
    onListen: ({ port }) => console.log(`listening on http://localhost:${port}/`),
  },
  () => new Response(null, { headers }),
);
