import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** A second server on the same data folder; it must not open the embedded database. */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data folder for this process, so that two servers never open the same
 * embedded database (PGlite is single-process: a second writer would corrupt it).
 * A lock left by a process that no longer runs (kill -9) is taken over.
 * @returns a function that releases the lock.
 * @throws DataDirInUseError when a running process holds it.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'server.lock');
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => unlinkSync(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder)) {
        throw new DataDirInUseError(
          `DATA_DIR ${dataDir} is in use by another server (pid ${holder}); stop it or choose another DATA_DIR`,
        );
      }
      unlinkSync(lockPath); // stale: its process is gone
    }
  }
}
