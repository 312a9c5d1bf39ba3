import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { messages } from '@common/messages';
import { AppError } from './errors';

/** How long a call to Redis may take before the server counts in memory instead. */
const REDIS_TIMEOUT_MS = 1000;

/** Counts hits per key in fixed windows. */
export interface RateLimitStore {
  /** Counts one hit on `key`; answers the count in the current window and when it ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  close(): Promise<void>;
  /** Where shared counters are: 'up' in Redis, 'down' in memory while Redis is unreachable. */
  readonly state?: 'up' | 'down';
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

/**
 * Counters in Redis, shared by every server instance. While Redis cannot be reached (a
 * call failed, or took more than REDIS_TIMEOUT_MS, or the connection is down) each server
 * counts in its own memory, says so once in its log, and goes back to Redis once it is
 * reachable again: sign-in keeps working, with per-server limits meanwhile.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly memory: MemoryRateLimitStore;
  private readonly log: FastifyBaseLogger;
  private reachable = true;
  private probedAt = 0;

  constructor(
    url: string,
    { keyPrefix, log, now }: { keyPrefix: string; log: FastifyBaseLogger; now: () => number },
  ) {
    this.log = log;
    this.memory = new MemoryRateLimitStore(now);
    this.redis = new Redis(url, {
      keyPrefix,
      lazyConnect: true,
      commandTimeout: REDIS_TIMEOUT_MS,
      connectTimeout: REDIS_TIMEOUT_MS,
      // Calls fail at once while disconnected (the memory counts them), rather than queueing.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // Reconnects for ever, at most a second apart.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    });
    this.redis.on('error', this.fail);
    this.redis.on('ready', this.recover);
    this.connected = this.redis.connect().catch(this.fail);
  }

  /** Settles once the first connection is made or failed (ioredis then retries alone). */
  readonly connected: Promise<void>;

  /** Notes that Redis failed; only the first failure of an outage is logged. */
  private readonly fail = (error: Error) => {
    if (!this.reachable) return;
    this.reachable = false;
    this.log.warn(
      { err: error },
      'Redis is unreachable: rate limits are counted per server until it returns',
    );
  };

  private readonly recover = () => {
    if (this.reachable) return;
    this.reachable = true;
    this.log.info('Redis is reachable again: rate limits are shared again');
  };

  /** Whether the counters are in Redis now ('up') or in this server's memory ('down'). */
  get state(): 'up' | 'down' {
    return this.reachable && this.redis.status === 'ready' ? 'up' : 'down';
  }

  async hit(key: string, windowMs: number) {
    if (this.usable()) {
      try {
        return await this.hitInRedis(`ratelimit:${key}`, windowMs);
      } catch (error) {
        this.fail(error as Error);
      }
    }
    return this.memory.hit(key, windowMs);
  }

  /**
   * Whether to count in Redis now. A Redis that stopped answering on a live connection is
   * asked again by a ping at most once every REDIS_TIMEOUT_MS; a lost connection comes
   * back by itself ('ready').
   */
  private usable() {
    if (this.redis.status !== 'ready') {
      this.fail(new Error(`The connection to Redis is ${this.redis.status}`));
      return false;
    }
    if (this.reachable) return true;
    const now = Date.now();
    if (now - this.probedAt >= REDIS_TIMEOUT_MS) {
      this.probedAt = now;
      this.redis.ping().then(this.recover, () => {});
    }
    return false;
  }

  private async hitInRedis(redisKey: string, windowMs: number) {
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
    this.redis.disconnect();
  }
}

/** A key attempts are counted under, and how many it may have in a window. */
export interface Limit {
  key: string;
  max: number;
}

/**
 * Counts an attempt under each key and throws 429, with Retry-After, once any key has
 * had more than its `max` attempts in the current window.
 */
export async function limitAttempts(
  store: RateLimitStore,
  limits: Limit[],
  windowMs: number,
): Promise<void> {
  const hits = await Promise.all(limits.map(({ key }) => store.hit(key, windowMs)));
  const exceeded = hits.filter((hit, i) => hit.count > limits[i]!.max);
  if (exceeded.length === 0) return;
  const seconds = Math.max(1, Math.ceil(Math.max(...exceeded.map((h) => h.resetInMs)) / 1000));
  throw new AppError(429, 'RATE_LIMITED', messages.server.tooManyAttempts(seconds), {
    headers: { 'retry-after': String(seconds) },
  });
}
