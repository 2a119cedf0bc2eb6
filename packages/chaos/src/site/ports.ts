import { createServer } from "node:net";

/**
 * A free TCP port on loopback. A site keeps its ports across restarts (agents hold one gRPC address), so each
 * replica gets its ports once, here, and every process of that replica listens on them again.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
