import { connect, createServer, type Server, type Socket } from "node:net";

/** A TCP proxy in front of a server, which a test can cut (connections dropped, new ones refused) and restore. */
export interface TcpProxy {
  port: number;
  /** Drops every connection through the proxy and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts and forwards new connections again, on the same port (stalled ones stay stalled). */
  restore(): Promise<void>;
  /** Forwards nothing more, either way, dropping nothing: a server that stopped answering. */
  stall(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(
  target: { host: string; port: number },
  /** Sees each client connection before it is forwarded (to read what the client sends). */
  onConnection?: (client: Socket) => void,
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    return socket;
  };
  let stalled = false;
  const pairs = new Set<[Socket, Socket]>();
  const forward = (client: Socket) => {
    track(client);
    if (stalled) return;
    const upstream = track(connect(target.port, target.host));
    onConnection?.(client);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    upstream.on("close", () => client.destroy());
    client.on("close", () => {
      upstream.destroy();
      pairs.delete(pair);
    });
    client.pipe(upstream).pipe(client);
  };
  const stall = () => {
    stalled = true;
    for (const [client, upstream] of pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  };
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    const listening = createServer(forward);
    await new Promise<void>((resolve) => listening.listen(port, "127.0.0.1", resolve));
    port = (listening.address() as { port: number }).port;
    server = listening;
  };
  const stop = async () => {
    const closing = server;
    server = undefined;
    const closed = closing ? new Promise<void>((resolve) => closing.close(() => resolve())) : undefined;
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  await listen();
  return {
    port,
    cut: stop,
    restore: async () => {
      stalled = false;
      if (!server) await listen();
    },
    stall,
    close: stop,
  };
}
