/**
 * bench:stream's `BENCH_HANDLING`: what the API's handling of a request costs, straight at it, with no front and
 * no bytes, so that a change to its per-request work shows:
 *   - a reading: the API with BLOB_OFFLOAD=nginx (its answer is the redirect alone) against the offload mode's
 *     floor, the bare handler that runs the reading's one statement and answers the same headers;
 *   - `/api/health/live`: the API against a bare `Deno.serve` answering that endpoint's headers, which is the
 *     API's fixed cost per request (router, middleware, request log) and nothing else.
 * Each request carries what nginx adds in front of the API (X-Request-Id, X-Forwarded-For), so the API does what
 * it does behind the front. 8 connections; the rounds alternate the four; CPU per request from /proc.
 *
 * Through the front the same handling costs two to four times as much (wrk's copying of every byte on the same
 * two cores leaves each wake-up to cold caches) and the rounds' ratios move by ±0.05; here the figures move by a
 * few percent.
 */
import { processes } from './cpu.ts';
import { replayableHeaders } from './replay.ts';
import { startBenchServer } from './server.ts';
import { median } from './statistics.ts';
import { writeSessionsScript, wrk, type WrkResult } from './wrk.ts';

const CONNECTIONS = 8;

export interface HandlingSetup {
  api: { base: string; pid: number };
  /** The floor's bare handler itself (bench/support/redirect_handler.ts with READING_DATABASE_URL), no front. */
  floor: { base: string; pid: number };
  documentPath: string;
  tokens: string[];
  /** Where the Lua script of the requests is written. */
  dir: string;
  rounds: number;
  seconds: number;
}

export interface HandlingRuns {
  reading: { api: WrkResult[]; floor: WrkResult[] };
  live: { api: WrkResult[]; bare: WrkResult[] };
}

export async function measureHandling(setup: HandlingSetup): Promise<HandlingRuns> {
  const script = await writeSessionsScript(`${setup.dir}/straight.lua`, setup.tokens, { proxied: true });
  const live = await replayableHeaders(`${setup.api.base}/api/health/live`);
  const bare = await startBenchServer(
    { REDIRECT_HEADERS: JSON.stringify(live.headers) },
    { script: 'bench/support/redirect_handler.ts' },
  );
  const postgres = () => processes({ name: 'postgres' });
  const runs = [
    {
      url: `${setup.api.base}${setup.documentPath}`,
      parties: () => ({ API: [setup.api.pid], PostgreSQL: postgres() }),
    },
    {
      url: `${setup.floor.base}${setup.documentPath}`,
      parties: () => ({ 'bare handler': [setup.floor.pid], PostgreSQL: postgres() }),
    },
    { url: `${setup.api.base}/api/health/live`, parties: () => ({ API: [setup.api.pid] }) },
    { url: `${bare.base}/api/health/live`, parties: () => ({ 'bare handler': [bare.pid] }) },
  ];
  try {
    const results: WrkResult[][] = runs.map(() => []);
    const options = { script, connections: CONNECTIONS, seconds: setup.seconds };
    for (const run of runs) await wrk(run.url, run.parties, options); // untimed: each at its steady state
    for (let round = 0; round < setup.rounds; round++) {
      for (const [i, run] of runs.entries()) results[i].push(await wrk(run.url, run.parties, options));
    }
    const failed = results.flat().filter((r) => r.non2xx || !r.requestsPerSec);
    if (failed.length) throw new Error(`a handling run failed:\n${failed.map((r) => r.raw).join('\n')}`);
    return { reading: { api: results[0], floor: results[1] }, live: { api: results[2], bare: results[3] } };
  } finally {
    await bare.stop();
  }
}

/** The lines bench:stream prints: each side's CPU per request (median of the rounds) and its requests a second. */
export function handlingFigures(runs: HandlingRuns): string[] {
  const side = (label: string, results: WrkResult[], party: string) => {
    const us = (name: string) => `${Math.round(median(results.map((r) => r.cpuPerRequest[name])))} µs`;
    const database = 'PostgreSQL' in (results[0]?.cpuPerRequest ?? {})
      ? ` (PostgreSQL ${us('PostgreSQL')})`
      : '';
    const rate = Math.round(median(results.map((r) => r.requestsPerSec))).toLocaleString('en-US');
    return `${label} ${us(party)}${database}, ${rate} req/s`;
  };
  return [
    `Straight at them (no front, no bytes; wrk -t1 -c${CONNECTIONS}; CPU per request, median of ${runs.reading.api.length} rounds):`,
    `  a reading:         ${side('API', runs.reading.api, 'API')}; ${
      side("the floor's bare handler", runs.reading.floor, 'bare handler')
    }`,
    `  /api/health/live:  ${side('API', runs.live.api, 'API')}; ${
      side('a bare Deno.serve, the same headers', runs.live.bare, 'bare handler')
    }`,
  ];
}
