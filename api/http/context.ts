/** The Hono environment every route shares. */
import type { ActiveSession } from '../db/sessions.ts';
import type { AppDeps } from '../deps.ts';

export type AppEnv = {
  Variables: {
    deps: AppDeps;
    /** Set by the guard on authenticated routes. */
    session: ActiveSession;
    /** The client's address, resolved once per request. */
    clientAddress: string;
  };
};
