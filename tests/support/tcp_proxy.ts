/**
 * A TCP relay in front of a server, for a test that must see the server go away and come back while the API runs:
 * `stop()` closes the port and every connection (a gateway that was stopped: connection refused), `hang()` keeps
 * accepting and answers nothing (a gateway whose storage is gone), `start()` relays again on the same port.
 * `cutAfter(n)` and `freezeAfter(n)` act in the middle of an answer: once `n` more bytes came back from the server
 * (over every connection), the relay closes every connection (a gateway killed mid-read) or stops passing bytes
 * while keeping them open (a gateway that froze).
 */
export interface TcpProxy {
  port: number;
  start(): void;
  stop(): void;
  hang(): void;
  cutAfter(bytes: number): void;
  freezeAfter(bytes: number): void;
  close(): void;
}

export function tcpProxy(target: { hostname: string; port: number }): TcpProxy {
  const probe = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  let listener: Deno.Listener | undefined;
  let mode: 'relay' | 'hang' = 'relay';
  /** Bytes the server may still send back before `then` happens (Infinity: no limit). */
  let budget = Infinity;
  let then: 'cut' | 'freeze' = 'cut';
  let frozen = Promise.withResolvers<void>();
  const open = new Set<Deno.Conn>();
  const closeAll = () => {
    for (const conn of open) {
      try {
        conn.close();
      } catch { /* closed */ }
    }
    open.clear();
  };
  const relay = async (client: Deno.Conn) => {
    open.add(client);
    if (mode === 'hang') return; // held open, never read or answered
    let server: Deno.Conn;
    try {
      server = await Deno.connect(target);
    } catch {
      client.close();
      open.delete(client);
      return;
    }
    open.add(server);
    const pipe = (from: Deno.Conn, to: Deno.Conn) =>
      from.readable.pipeTo(to.writable).catch(() => {}).finally(() => {
        for (const c of [from, to]) {
          try {
            c.close();
          } catch { /* closed */ }
          open.delete(c);
        }
      });
    // Back from the server: counted against the budget, and cut or frozen once it is spent.
    const back = async () => {
      const writer = client.writable.getWriter();
      try {
        for await (const chunk of server.readable) {
          let pass = chunk;
          if (budget !== Infinity) {
            pass = chunk.subarray(0, Math.max(0, Math.min(chunk.length, budget)));
            budget -= pass.length;
          }
          if (pass.length) await writer.write(pass);
          if (budget <= 0) {
            if (then === 'cut') closeAll();
            else await frozen.promise; // never resolves: held open, silent
            return;
          }
        }
      } catch {
        /* closed */
      } finally {
        for (const c of [client, server]) {
          try {
            c.close();
          } catch { /* closed */ }
          open.delete(c);
        }
      }
    };
    await Promise.all([pipe(client, server), back()]);
  };
  const proxy: TcpProxy = {
    port,
    start() {
      mode = 'relay';
      budget = Infinity;
      if (listener) return;
      const l = listener = Deno.listen({ hostname: '127.0.0.1', port });
      (async () => {
        for await (const conn of l) relay(conn);
      })().catch(() => {});
    },
    stop() {
      listener?.close();
      listener = undefined;
      closeAll();
      frozen.resolve();
    },
    hang() {
      proxy.start();
      closeAll();
      mode = 'hang';
    },
    cutAfter(bytes) {
      then = 'cut';
      budget = bytes;
    },
    freezeAfter(bytes) {
      then = 'freeze';
      frozen = Promise.withResolvers<void>();
      budget = bytes;
    },
    close() {
      proxy.stop();
    },
  };
  proxy.start();
  return proxy;
}
