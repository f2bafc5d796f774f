/** The Hono environment every route shares. */
import type { ActiveSession, Carried } from '../db/sessions.ts';
import type { AppDeps } from '../deps.ts';
import type { Logger } from '../log.ts';

export type AppEnv = {
  Variables: {
    deps: AppDeps;
    /** Set by the guard on authenticated routes. */
    session: ActiveSession;
    /** Set by the guard on a route that gave it an `alongside` read: what that read answered (GuardOptions). */
    alongside: Carried | undefined;
    /** The client's address, resolved once per request. */
    clientAddress: string;
    /** Generated per request (or a trusted proxy's), echoed in X-Request-Id and in every log line. */
    requestId: string;
    log: Logger;
    /** The catalogue code of a refusal, set where it becomes HTTP (errors.ts), for the metrics (metrics.ts). */
    failureCode: string | undefined;
  };
};
