/**
 * A small PWA build folder for the static-file tests: a hashed script, one under 1 KB, the shell and an
 * image, with the `.br`/`.gz` siblings made by the build's own function (scripts/precompress.ts), so the
 * tests need no Vite build.
 */
import { precompressDir } from '../../scripts/precompress.ts';

/** The hashed script of the fake build, large enough to be compressed. */
export const APP_JS = '/assets/app-3f2a9c1d.js';
/** A script under 1 KB: no siblings. */
export const TINY_JS = '/assets/tiny-0a1b2c3d.js';

/** Text that compresses as a real bundle does: repeated identifiers, not random bytes. */
function fakeBundle(lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) =>
      `export function component${i}(props) { return createElement("div", { key: ${i}, ...props }); }\n`,
  ).join('');
}

/** Makes the folder (the caller removes it). */
export async function makeFakeDist(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: 'lmp-dist-' });
  await Deno.mkdir(`${dir}/assets`);
  await Deno.writeTextFile(`${dir}${APP_JS}`, fakeBundle(400));
  await Deno.writeTextFile(`${dir}${TINY_JS}`, 'export const tiny = 1;\n');
  await Deno.writeTextFile(
    `${dir}/index.html`,
    `<!doctype html><html><head><title>Secure Mail</title></head><body><div id="root"></div>${
      '<!-- shell -->'.repeat(100)
    }<script type="module" src="${APP_JS}"></script></body></html>`,
  );
  await Deno.writeFile(`${dir}/icon.png`, new Uint8Array(2048).fill(7));
  precompressDir(dir);
  return dir;
}
