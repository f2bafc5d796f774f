/**
 * One HTTP/1.1 exchange over a plain socket, for tests that must see the bytes on the wire: fetch decodes a
 * compressed body itself and would hide which encoding arrived and how long it was.
 */

export interface RawAnswer {
  status: number;
  /** Header names in lower case; a header sent twice is joined with ", ". */
  headers: Map<string, string>;
  body: Uint8Array;
}

/** Sends `method path` to `base` (http://host:port) with the headers given, and reads to the close. */
export async function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const url = new URL(base);
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  await conn.write(new TextEncoder().encode(`${lines.join('\r\n')}\r\n\r\n`));
  const all = new Uint8Array(await new Response(conn.readable).arrayBuffer());
  let split = 0;
  while (
    split < all.length &&
    !(all[split] === 13 && all[split + 1] === 10 && all[split + 2] === 13 && all[split + 3] === 10)
  ) {
    split++;
  }
  const [statusLine, ...headerLines] = new TextDecoder().decode(all.subarray(0, split)).split('\r\n');
  const answer: RawAnswer = {
    status: Number(statusLine.split(' ')[1]),
    headers: new Map(),
    body: all.subarray(split + 4),
  };
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    answer.headers.set(name, answer.headers.has(name) ? `${answer.headers.get(name)}, ${value}` : value);
  }
  if (answer.headers.get('transfer-encoding') === 'chunked') {
    throw new Error(`${path}: chunked answer, not decoded here`);
  }
  return answer;
}
