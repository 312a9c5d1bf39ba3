import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { freePort } from '../../../bench/builtServer';

/**
 * A Redis server of the test's own (Debian's redis-server), on a free port, that the test
 * stops and starts again on the same port: for what the API does while Redis is away.
 */
export async function startRedisServer() {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    // Ready once it accepts a connection.
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      const socket = connect(port, '127.0.0.1');
      const accepted = await new Promise<boolean>((resolve) => {
        socket.once('connect', () => resolve(true)).once('error', () => resolve(false));
      });
      socket.destroy();
      if (accepted) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    child.kill('SIGCONT');
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    /** Freezes the server: connections stay open, nothing is answered. */
    pause: () => child!.kill('SIGSTOP'),
    resume: () => child!.kill('SIGCONT'),
  };
}
