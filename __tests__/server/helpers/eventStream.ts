/** One message of an SSE stream (`comment` for a `: …` line). */
export interface SseFrame {
  event: string;
  id?: string;
  data?: unknown;
}

export interface OpenStream {
  status: number;
  headers: Headers;
  /** Every message so far, in order. */
  frames: SseFrame[];
  /** The first message (so far or to come) that `match` accepts. */
  waitFor(match: (frame: SseFrame) => boolean, timeoutMs?: number): Promise<SseFrame>;
  /** Resolves once the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `GET /api/events` as the SPA does (fetch, bearer header) and parses what arrives. */
export async function openEventStream(
  baseUrl: string,
  token: string | undefined,
  lastEventId?: string,
): Promise<OpenStream> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/events`, {
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const frames: SseFrame[] = [];
  const listeners = new Set<() => void>();
  const parse = (block: string) => {
    const frame: SseFrame = { event: 'message' };
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) frame.event = 'comment';
      else if (line.startsWith('event: ')) frame.event = line.slice(7);
      else if (line.startsWith('id: ')) frame.id = line.slice(4);
      else if (line.startsWith('data: ')) frame.data = JSON.parse(line.slice(6));
      else if (line.startsWith('retry: ')) frame.event = 'retry';
    }
    frames.push(frame);
    for (const listener of [...listeners]) listener();
  };
  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          parse(buffered.slice(0, end));
          buffered = buffered.slice(end + 2);
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    frames,
    ended,
    waitFor: (match, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.find(match);
          if (!found) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`No such event within ${timeoutMs} ms; got ${JSON.stringify(frames)}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    close: () => controller.abort(),
  };
}

/** A `change` frame of one kind of item. */
export const changeOf =
  (resource: string, action?: string, id?: string) =>
  (frame: SseFrame): boolean => {
    const data = frame.data as { resource?: string; action?: string; id?: string } | undefined;
    return (
      frame.event === 'change' &&
      data?.resource === resource &&
      (action === undefined || data.action === action) &&
      (id === undefined || data.id === id)
    );
  };
