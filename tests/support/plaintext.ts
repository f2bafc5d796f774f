/** Looking for a document's plaintext where it must not be: stored files, rows, objects, backups. */

/** The run of shared bytes the checks look for: 48 bytes, three AES blocks, far beyond any chance match. */
export const RUN = 48;

/**
 * Where `haystack` holds RUN bytes of `needle` in a row, or undefined: any such run holds one of the needle's
 * (RUN / 2)-byte blocks that start at a multiple of RUN / 2, so each window of the haystack is looked up among those.
 */
export function sharedRun(needle: Uint8Array, haystack: Uint8Array): number | undefined {
  const block = RUN / 2;
  const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
  const text = latin1(needle);
  const blocks = new Set<string>();
  for (let at = 0; at + block <= text.length; at += block) blocks.add(text.slice(at, at + block));
  const hay = latin1(haystack);
  for (let at = 0; at + block <= hay.length; at++) if (blocks.has(hay.slice(at, at + block))) return at;
  return undefined;
}

/** Every file under `dir`, recursively (none when it does not exist). */
export async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      if (entry.isDirectory) await walk(`${path}/${entry.name}`);
      else if (entry.isFile) found.push(`${path}/${entry.name}`);
    }
  };
  await walk(dir).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  return found;
}

/** The files under `dir` that hold RUN bytes of `plain` in a row. */
export async function filesHolding(dir: string, plain: Uint8Array): Promise<string[]> {
  const holding: string[] = [];
  for (const path of await filesUnder(dir)) {
    if (sharedRun(plain, await Deno.readFile(path)) !== undefined) holding.push(path);
  }
  return holding;
}
