/**
 * `npm run receipt:verify FILE [-- --public-key <base64>]`: checks a downloaded delivery receipt offline (no
 * database, no network): its signature, that it is byte for byte as signed, and which of its events the enclosed
 * checkpoint covers. Exit 0 when it holds, 1 when it does not (docs/operations.md, "Delivery receipts").
 */
import { parseArgs } from 'node:util';
import { checkReceipt } from '../domain/receipts.ts';

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { 'public-key': { type: 'string' } },
  allowPositionals: true,
});
if (positionals.length !== 1) {
  console.error('usage: npm run receipt:verify FILE [-- --public-key <base64>]');
  Deno.exit(2);
}
const text = await Deno.readTextFile(positionals[0]).catch((error) => {
  console.error(`receipt:verify: ${(error as Error).message}`);
  Deno.exit(2);
});
const result = await checkReceipt(text, values['public-key']);
if (!result.ok) {
  console.log(`FAIL: ${result.reason}`);
  Deno.exit(1);
}
console.log('ok: the receipt holds');
for (const line of result.lines) console.log(`  ${line}`);
