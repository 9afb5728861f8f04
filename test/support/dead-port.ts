/** Test support: a port on 127.0.0.1 that nothing listens on (bound, read, then released). */
import { createServer } from "node:net";

export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
