import { CHUNK_RETRY_WAITS_MS, loadChunk } from '@/lib/loadChunk';

/** A chunk that fails to load `failures` times, then loads; counts the tries. */
function flakyChunk(failures: number) {
  const chunk = { tries: 0, module: { Screen: 'the screen' } };
  const load = async () => {
    chunk.tries++;
    if (chunk.tries <= failures) throw new Error('Loading chunk 42 failed');
    return chunk.module;
  };
  return { chunk, load };
}

describe('loadChunk', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('tries a chunk that failed again after a wait, and answers it once it loads', async () => {
    const { chunk, load } = flakyChunk(2);
    const loaded = loadChunk(load);
    await jest.advanceTimersByTimeAsync(CHUNK_RETRY_WAITS_MS[0]! - 1);
    expect(chunk.tries).toBe(1);
    await jest.advanceTimersByTimeAsync(1 + CHUNK_RETRY_WAITS_MS[1]!);
    await expect(loaded).resolves.toBe(chunk.module);
    expect(chunk.tries).toBe(3);
  });

  it('gives up with the error after its last try', async () => {
    const { chunk, load } = flakyChunk(Infinity);
    const loaded = loadChunk(load);
    const failed = expect(loaded).rejects.toThrow('Loading chunk 42 failed');
    await jest.runAllTimersAsync();
    await failed;
    expect(chunk.tries).toBe(CHUNK_RETRY_WAITS_MS.length + 1);
  });
});
