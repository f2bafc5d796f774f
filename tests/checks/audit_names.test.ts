/**
 * Every audit event type and resource type the API writes has a name in each of the PWA's languages
 * (pwa/src/i18n/<language>.json, `audit.events` and `audit.resources`, keyed in camelCase): the admin's audit
 * log and a user's recent activity show them by those names, so a type without one would reach a Spanish
 * screen as English words.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

const root = new URL('../..', import.meta.url).pathname;

/** The event and resource types written in api/: `eventType: 'x'`, `resourceType: 'x'`, and the domain's audit helpers. */
async function writtenTypes(): Promise<{ events: Set<string>; resources: Set<string> }> {
  const events = new Set<string>();
  const resources = new Set<string>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith('.ts')) {
        const text = await Deno.readTextFile(path);
        for (const m of text.matchAll(/eventType(?::|\s*=)\s*'([a-z_]+)'/g)) events.add(m[1]);
        for (const m of text.matchAll(/eventType: [^,\n]*\? '([a-z_]+)' : '([a-z_]+)'/g)) {
          events.add(m[1]);
          events.add(m[2]);
        }
        // The domain's local helpers: `audit(tx, 'mfa_enrolled', …)`, `audit('login_throttled', …)`.
        for (const m of text.matchAll(/\baudit\((?:tx, )?'([a-z]+_[a-z_]+|logout)'/g)) events.add(m[1]);
        for (const m of text.matchAll(/resourceType: '([a-z_]+)'/g)) resources.add(m[1]);
      }
    }
  };
  await walk(join(root, 'api'));
  return { events, resources };
}

const camel = (type: string) => type.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
/** What the password change's audit helper is given is the reason of its one event type, not a type. */
const REASONS = new Set(['bad_secret']);
/** The spec's named events keep their keys (pwa/src/portals/admin/audit/eventNames.ts NAMED). */
const OLDER_KEYS: Record<string, string> = { user_login: 'userLogin' };

Deno.test('every audit event type the API writes has a name in English and in Spanish', async () => {
  const { events } = await writtenTypes();
  assert.ok(events.size > 40, `only ${events.size} event types found: the search no longer reads api/`);
  const missing = [...events].filter((type) => !REASONS.has(type)).filter((type) => {
    const key = OLDER_KEYS[type] ?? camel(type);
    return !(key in en.audit.events) || !(key in es.audit.events);
  });
  assert.deepEqual(missing, []);
});

Deno.test('every resource type the API writes has a name in English and in Spanish', async () => {
  const { resources } = await writtenTypes();
  assert.ok(resources.size > 5);
  const missing = [...resources].filter((type) =>
    !(camel(type) in en.audit.resources) || !(camel(type) in es.audit.resources)
  );
  assert.deepEqual(missing, []);
});
