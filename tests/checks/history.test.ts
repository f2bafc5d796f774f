/** The history check: silent on the repository, loud on a diary line in a document or a comment. */
import assert from 'node:assert/strict';
import { findHistory } from '../../scripts/check_history.ts';

Deno.test('no document or comment of the repository tells the history of its making', async () => {
  const found = await findHistory(new URL('../..', import.meta.url).pathname);
  assert.deepEqual(found.map((f) => `${f.file}:${f.line}: ${f.text}`), []);
});

Deno.test('the check finds a session, an issue or a review named in a document or a comment', async () => {
  const root = await Deno.makeTempDir({ prefix: 'history-' });
  try {
    await Deno.mkdir(`${root}/docs`);
    await Deno.mkdir(`${root}/api`);
    await Deno.mkdir(`${root}/node_modules`);
    await Deno.writeTextFile(`${root}/docs/a.md`, 'Fine.\nMeasured in sess' + 'ion 27.\n');
    await Deno.writeTextFile(`${root}/api/b.ts`, '// the budget of iss' + 'ue 12\nconst x = 1;\n');
    await Deno.writeTextFile(`${root}/api/c.tsx`, '/* A rev' + 'iew found it a 500. */\n');
    await Deno.writeTextFile(`${root}/node_modules/d.ts`, '// iss' + 'ue 1\n');
    const found = await findHistory(root);
    assert.deepEqual(found.map((f) => `${f.file}:${f.line}`).sort(), [
      'api/b.ts:1',
      'api/c.tsx:1',
      'docs/a.md:2',
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
