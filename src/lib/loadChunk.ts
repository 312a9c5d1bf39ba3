/** How long to wait before each new try of a chunk that failed to load. */
export const CHUNK_RETRY_WAITS_MS = [500, 1000, 2000];

/**
 * Loads a lazily imported chunk, trying again a few times when it fails (a network blip, a
 * server restarting): webpack forgets a chunk that failed, so the next import fetches it
 * anew. A chunk refused once used to leave the app on its error page until a reload.
 */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  for (const wait of CHUNK_RETRY_WAITS_MS) {
    try {
      return await load();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return load();
}
