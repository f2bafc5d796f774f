/** The boundary check itself: silent on a clean tree, and loud on each kind of violation. */
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { findViolations } from '../../scripts/check_boundaries.ts';

/** A scratch repository holding `files` (path → text). */
async function tree(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: 'boundaries-' });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, dirname(path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  return root;
}

const CLEAN = {
  'contract/rules/a.ts': "import { b } from './b.ts';\nexport const a = b;\n",
  'contract/rules/b.ts': 'export const b = 1;\n',
  'contract/shapes/user.ts': "import type { b } from '../rules/b.ts';\nexport type U = typeof b;\n",
  'pwa/src/x.ts':
    "import { a } from '../../contract/rules/a.ts';\nimport React from 'react';\nexport { a, React };\n",
  'api/domain/d.ts':
    "import { a } from '../../contract/rules/a.ts';\nexport const d = { status: 'active', a };\n",
  'api/routes/r.ts': "import { Hono } from 'hono';\nexport const r = new Hono();\n",
};

async function violationsOf(extra: Record<string, string>) {
  const root = await tree({ ...CLEAN, ...extra });
  try {
    return await findViolations(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test('a tree that keeps the boundaries has no violation', async () => {
  assert.deepEqual(await violationsOf({}), []);
});

Deno.test('the real repository keeps its boundaries', async () => {
  const violations = await findViolations(new URL('../..', import.meta.url).pathname);
  assert.deepEqual(violations, []);
});

Deno.test('contract/ importing an npm package or a file outside itself is a violation', async () => {
  const v = await violationsOf({
    'contract/rules/bad.ts': "import { z } from 'zod';\nimport { x } from '../../api/domain/d.ts';\n",
  });
  assert.deepEqual(v.map((x) => [x.file, x.line]), [['contract/rules/bad.ts', 1], [
    'contract/rules/bad.ts',
    2,
  ]]);
});

Deno.test('pwa/ importing from api/ is a violation, static or dynamic', async () => {
  const v = await violationsOf({
    'pwa/src/bad.tsx':
      "import { d } from '../../api/domain/d.ts';\nconst m = import('../../api/routes/r.ts');\n",
  });
  assert.equal(v.length, 2);
  assert.match(v[0].rule, /pwa\/ must not import from api\//);
});

Deno.test('api/domain/ importing Hono or naming an HTTP status is a violation', async () => {
  const v = await violationsOf({
    'api/domain/bad.ts':
      "import { HTTPException } from 'hono/http-exception';\nexport const f = { ok: false, status: 409 };\n",
  });
  assert.deepEqual(v.map((x) => x.line), [1, 2]);
  assert.match(v[0].rule, /must not import Hono/);
  assert.match(v[1].rule, /names no HTTP status/);
});
