import { Redis } from 'ioredis';
import { messages } from '@common/messages';
import { AppError } from './errors';

/** Counts hits per key in fixed windows. */
export interface RateLimitStore {
  /** Counts one hit on `key`; answers the count in the current window and when it ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  close(): Promise<void>;
}

/** Counters in this process: enough for one server. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, windowMs: number) {
    const now = this.now();
    if (this.windows.size > 10_000) {
      for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    }
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async close() {}
}

/** Counters in Redis, shared by every server instance. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  }

  async hit(key: string, windowMs: number) {
    const redisKey = `ratelimit:${key}`;
    const results = await this.redis
      .multi()
      .set(redisKey, 0, 'PX', windowMs, 'NX')
      .incr(redisKey)
      .pttl(redisKey)
      .exec();
    const count = Number(results?.[1]?.[1] ?? 1);
    const ttl = Number(results?.[2]?.[1] ?? windowMs);
    return { count, resetInMs: ttl > 0 ? ttl : windowMs };
  }

  async close() {
    await this.redis.quit();
  }
}

/**
 * Counts an attempt under each key and throws 429, with Retry-After, once any key has
 * had more than `max` attempts in the current window.
 */
export async function limitAttempts(
  store: RateLimitStore,
  keys: string[],
  { max, windowMs }: { max: number; windowMs: number },
): Promise<void> {
  const hits = await Promise.all(keys.map((key) => store.hit(key, windowMs)));
  const exceeded = hits.filter((h) => h.count > max);
  if (exceeded.length === 0) return;
  const seconds = Math.max(1, Math.ceil(Math.max(...exceeded.map((h) => h.resetInMs)) / 1000));
  throw new AppError(429, 'RATE_LIMITED', messages.server.tooManyAttempts(seconds), {
    headers: { 'retry-after': String(seconds) },
  });
}
