/**
 * Every variable the configuration reads is in `.env.example` and in the README's table, so an operator reading
 * either finds it: the names are taken from api/config.ts's schema itself.
 */
import assert from 'node:assert/strict';

const root = new URL('../../', import.meta.url);
const read = (file: string) => Deno.readTextFile(new URL(file, root));

/** The variables api/config.ts's schema parses (its `NAME:` keys). */
async function configVariables(): Promise<string[]> {
  const source = await read('api/config.ts');
  const schema = source.slice(source.indexOf('const envSchema = z.object({'), source.indexOf('\n})'));
  return [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
}

Deno.test('every variable the configuration reads is in .env.example and in the README', async () => {
  const variables = await configVariables();
  assert.ok(variables.length > 20 && variables.includes('DATABASE_URL'), variables.join(' '));
  const example = await read('.env.example');
  const readme = await read('README.md');
  const table = readme.slice(readme.indexOf('## Environment variables'), readme.indexOf('## Running it'));
  // Set by the platform itself, never by an operator's file.
  const platform = new Set(['DENO_DEPLOYMENT_ID']);
  assert.deepEqual(
    variables.filter((v) => !platform.has(v) && !new RegExp(`^#? ?${v}=`, 'm').test(example)),
    [],
    'missing from .env.example',
  );
  assert.deepEqual(
    variables.filter((v) => !table.includes(`\`${v}\``)),
    [],
    "missing from the README's table",
  );
});
