/**
 * This release's version (package.json, semantic versioning): `GET /api/health` answers it, the migrations record
 * it beside each migration they apply, and a start on a database a newer release migrated names both.
 */
import manifest from '../package.json' with { type: 'json' };

export const APP_VERSION: string = manifest.version;
