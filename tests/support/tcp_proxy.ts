/**
 * A TCP relay in front of a server, for a test that must see the server go away and come back while the API runs:
 * `stop()` closes the port and every connection (a gateway that was stopped: connection refused), `hang()` keeps
 * accepting and answers nothing (a gateway whose storage is gone), `start()` relays again on the same port.
 */
export interface TcpProxy {
  port: number;
  start(): void;
  stop(): void;
  hang(): void;
  close(): void;
}

export function tcpProxy(target: { hostname: string; port: number }): TcpProxy {
  const probe = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  let listener: Deno.Listener | undefined;
  let mode: 'relay' | 'hang' = 'relay';
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
    await Promise.all([pipe(client, server), pipe(server, client)]);
  };
  const proxy: TcpProxy = {
    port,
    start() {
      mode = 'relay';
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
    },
    hang() {
      proxy.start();
      closeAll();
      mode = 'hang';
    },
    close() {
      proxy.stop();
    },
  };
  proxy.start();
  return proxy;
}
