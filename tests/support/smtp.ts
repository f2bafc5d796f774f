/**
 * A real SMTP listener for tests (moved here from tests/api/email.test.ts so every suite that sends mail
 * uses the same one).
 */
/** What the in-test SMTP server received. */
export interface Received {
  from: string;
  to: string[];
  data: string;
}

/**
 * A small SMTP server (RFC 5321 subset) on 127.0.0.1: answers EHLO/HELO, MAIL, RCPT, DATA (undoing the
 * dot-stuffing), RSET, NOOP and QUIT, and records every accepted message.
 */
export function startSmtpServer(port = 0) {
  const listener = Deno.listen({ hostname: '127.0.0.1', port });
  const received: Received[] = [];
  const connections = new Set<Deno.Conn>();
  const encoder = new TextEncoder();
  const serve = async (conn: Deno.Conn) => {
    connections.add(conn);
    const write = (text: string) => conn.write(encoder.encode(text));
    const decoder = new TextDecoder();
    let buffer = '';
    let current: Received = { from: '', to: [], data: '' };
    let inData = false;
    try {
      await write('220 test-smtp ready\r\n');
      const chunk = new Uint8Array(8192);
      while (true) {
        const n = await conn.read(chunk);
        if (n === null) break;
        buffer += decoder.decode(chunk.subarray(0, n), { stream: true });
        while (true) {
          if (inData) {
            const end = buffer.indexOf('\r\n.\r\n');
            if (end < 0) break;
            const raw = buffer.slice(0, end);
            buffer = buffer.slice(end + 5);
            current.data = raw.split('\r\n').map((l) => (l.startsWith('..') ? l.slice(1) : l)).join('\r\n');
            received.push(current);
            current = { from: '', to: [], data: '' };
            inData = false;
            await write('250 OK queued\r\n');
            continue;
          }
          const eol = buffer.indexOf('\r\n');
          if (eol < 0) break;
          const line = buffer.slice(0, eol);
          buffer = buffer.slice(eol + 2);
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'EHLO') await write('250-test-smtp\r\n250-8BITMIME\r\n250 SIZE 10485760\r\n');
          else if (verb === 'HELO' || verb === 'NOOP' || verb === 'RSET') await write('250 OK\r\n');
          else if (verb === 'MAIL') {
            current.from = /<(.*)>/.exec(line)?.[1] ?? '';
            await write('250 OK\r\n');
          } else if (verb === 'RCPT') {
            current.to.push(/<(.*)>/.exec(line)?.[1] ?? '');
            await write('250 OK\r\n');
          } else if (verb === 'DATA') {
            inData = true;
            await write('354 End data with <CR><LF>.<CR><LF>\r\n');
          } else if (verb === 'QUIT') {
            await write('221 Bye\r\n');
            return;
          } else await write('500 Unrecognised command\r\n');
        }
      }
    } catch {
      /* client went away */
    } finally {
      connections.delete(conn);
      try {
        conn.close();
      } catch { /* closed */ }
    }
  };
  (async () => {
    try {
      for await (const conn of listener) serve(conn);
    } catch { /* listener closed */ }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    received,
    close() {
      listener.close();
      for (const c of connections) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}
