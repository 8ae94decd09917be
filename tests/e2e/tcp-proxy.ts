import net from 'node:net';

/**
 * A TCP proxy in front of the e2e server, standing for the phone's network: `cut()` resets every
 * connection through it and resets new ones until `restore()`, as a tunnel or a dead zone does to a
 * page (Chromium's offline emulation would leave open websockets alone).
 */
export interface TcpProxy {
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    pairs.add(client);
    pairs.add(upstream);
    const end = () => {
      pairs.delete(client);
      pairs.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      down = true;
      for (const socket of pairs) socket.resetAndDestroy();
      pairs.clear();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of pairs) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
