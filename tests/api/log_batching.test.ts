/**
 * The log's info lines go to stdout in batches (api/log.ts): none is lost or reordered, a warning or an error is
 * never held back behind them, a long batch is not held back for its timer, and the exit writes what is pending.
 */
import assert from 'node:assert/strict';
import { batchedLines } from '../../api/log.ts';

Deno.test('lines wait for the scheduled flush, then go out in one write, in order', () => {
  const writes: string[] = [];
  const scheduled: (() => void)[] = [];
  const lines = batchedLines((text) => writes.push(text), (flush) => scheduled.push(flush));
  lines.add('a');
  lines.add('b');
  lines.add('c');
  assert.deepEqual(writes, []);
  assert.equal(scheduled.length, 1, 'one flush scheduled for the whole batch');
  scheduled[0]();
  assert.deepEqual(writes, ['a\nb\nc\n']);
  lines.flush();
  assert.deepEqual(writes, ['a\nb\nc\n'], 'nothing pending: no empty write');
  lines.add('d');
  lines.flush();
  assert.deepEqual(writes, ['a\nb\nc\n', 'd\n']);
});

Deno.test('a batch of maxLines is written at once; the one timer then writes what followed it', () => {
  const writes: string[] = [];
  const scheduled: (() => void)[] = [];
  const lines = batchedLines((text) => writes.push(text), (flush) => scheduled.push(flush), 3);
  for (const line of ['a', 'b', 'c', 'd']) lines.add(line);
  assert.deepEqual(writes, ['a\nb\nc\n'], 'the third line wrote the batch without waiting');
  assert.equal(scheduled.length, 1, 'no second timer for the line after it');
  scheduled[0]();
  assert.deepEqual(writes, ['a\nb\nc\n', 'd\n']);
  lines.add('e');
  assert.equal(scheduled.length, 2, 'after its timer ran, the next line schedules one again');
});

/**
 * The last word of each line that a script logging through api/log.ts's standard writer leaves, stdout and stderr
 * in one pipe, so the order the reader sees is the order of the writes.
 */
async function loggedWords(body: string): Promise<string[]> {
  const script = await Deno.makeTempFile({ suffix: '.ts' });
  try {
    await Deno.writeTextFile(
      script,
      `import { createLogger } from '${new URL('../../api/log.ts', import.meta.url).href}';
const log = createLogger({ logFormat: 'text', logLevel: 'info' });
${body}`,
    );
    const out = await new Deno.Command('sh', {
      args: ['-c', `"${Deno.execPath()}" run -A "${script}" 2>&1`],
      stdout: 'piped',
    }).output();
    assert.equal(out.code, 0);
    return new TextDecoder().decode(out.stdout).trim().split('\n').map((line) => line.split(' ').pop() ?? '');
  } finally {
    await Deno.remove(script);
  }
}

Deno.test('in a process: every line is written, errors in their place, the rest at exit', async () => {
  const words = await loggedWords(`log.info('one');
log.info('two');
log.error('three');
log.info('four');
await new Promise((r) => setTimeout(r, 20));
log.info('five');
log.info('six');
Deno.exit(0);
`);
  assert.deepEqual(words, ['one', 'two', 'three', 'four', 'five', 'six']);
});

Deno.test('in a process that ends by itself: the pending lines are written at its end', async () => {
  assert.deepEqual(await loggedWords(`log.info('one');\nlog.info('two');\n`), ['one', 'two']);
});
