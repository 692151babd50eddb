import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import getPort from 'get-port';
import { Redis } from 'ioredis';

export interface RedisServerHandle {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
  /** Start again on the same port (for fault tests). */
  restart(): Promise<void>;
}

/** The `redis-server` on PATH, or undefined when there is none. */
export function findRedisServer(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const bin = found.stdout.trim();
  return found.status === 0 && bin ? bin : undefined;
}

/** Starts a throwaway redis-server on a free loopback port, without persistence. */
export async function startRedisServer(bin = findRedisServer()): Promise<RedisServerHandle> {
  if (!bin) throw new Error('redis-server is not installed (not found on PATH)');
  const port = await getPort();
  let child = await launch(bin, port);
  const handle: RedisServerHandle = {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    async stop() {
      await terminate(child);
    },
    async restart() {
      await terminate(child);
      child = await launch(bin, port);
      handle.process = child;
    },
  };
  return handle;
}

async function launch(bin: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    bin,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
    ],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    const client = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    // Refused connections are expected until the server listens; the loop retries.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return child;
    } catch {
      client.disconnect();
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error('redis-server did not answer within 10 s');
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
