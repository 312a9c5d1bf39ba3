import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { defaultStaticDir } from './paths';

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
/** A name that goes into logs, answers and Redis keys as it is. */
const plainName = z
  .string()
  .max(100, 'must be at most 100 characters')
  .regex(/^[\w.:-]+$/u, 'may hold only letters, digits and . _ : -');

/** An address, a CIDR range (`10.0.0.0/8`), or one of proxy-addr's names for ranges. */
const isProxyAddress = (entry: string) => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  return (
    prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128))
  );
};

const positiveInt = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be more than 0');

const envSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyAsUndefined,
    z.enum(['development', 'production', 'test']).default('production'),
  ),
  PORT: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 65535')
      .max(65535, 'must be between 0 and 65535')
      .default(3000),
  ),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
      .optional(),
  ),
  ADMIN_PASSWORD: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .min(8, 'must be at least 8 characters')
      .max(128, 'must be at most 128 characters')
      .optional(),
  ),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  CORS_ORIGINS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.url({ error: 'must be a comma-separated list of origins' }))),
  ),
  // The proxies that may tell the client's address in X-Forwarded-For. Unset: none, the
  // peer is the client.
  TRUST_PROXY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .optional()
      .transform((value) => (value === undefined ? false : value.split(',').map((e) => e.trim())))
      .pipe(
        z.union([
          z.literal(false),
          z.array(z.string()).refine((entries) => entries.every(isProxyAddress), {
            error: 'must be comma-separated addresses or CIDR ranges of proxies',
          }),
        ]),
      ),
  ),
  STATIC_DIR: optionalString,
  JWT_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  SECRETS_KEY: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  REFRESH_TOKEN_DAYS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .positive('must be more than 0')
      .max(365, 'must be at most 365')
      .default(7),
  ),
  PUBLIC_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  ),
  GOOGLE_ISSUER: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .default('https://accounts.google.com'),
  ),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  INSTANCE_NAME: z.preprocess(emptyAsUndefined, plainName.optional()),
  REDIS_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  ),
  REDIS_KEY_PREFIX: z.preprocess(emptyAsUndefined, plainName.default('lims:')),
  BOOKS_API_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .default('https://www.googleapis.com/books/v1/volumes'),
  ),
  BOOKS_API_KEY: optionalString,
  BOOKS_API_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(100, 'must be at least 100')
      .max(60_000, 'must be at most 60000')
      .default(5000),
  ),
  SEED_JOBS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be 0 or more')
      .default(10_000),
  ),
  HISTORY_RETENTION_DAYS: z.preprocess(emptyAsUndefined, positiveInt.optional()),
  HISTORY_MAX_VERSIONS: z.preprocess(emptyAsUndefined, positiveInt.optional()),
  AUDIT_RETENTION_DAYS: z.preprocess(emptyAsUndefined, positiveInt.optional()),
  EVENTS_HEARTBEAT_SECONDS: z.preprocess(emptyAsUndefined, positiveInt.default(15)),
  EVENT_STREAMS_PER_USER: z.preprocess(emptyAsUndefined, positiveInt.default(10)),
  MAX_EVENT_LOOP_DELAY_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be 0 or more')
      .default(1000),
  ),
  PASSWORD_ATTEMPTS_PER_USER: z.preprocess(emptyAsUndefined, positiveInt.default(10)),
  AUTH_RATE_LIMIT: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .positive('must be more than 0')
      .default(10),
  ),
});

const secretVariables = new Set([
  'ADMIN_PASSWORD',
  'DATABASE_URL',
  'JWT_SECRET',
  'SECRETS_KEY',
  'GOOGLE_CLIENT_SECRET',
  'REDIS_URL',
  'BOOKS_API_KEY',
]);

/** The server's configuration, read once from the environment at start. */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Folder of the embedded database; unused when `databaseUrl` is set. */
  dataDir: string;
  databaseUrl: string | undefined;
  adminPassword: string | undefined;
  logLevel: string;
  corsOrigins: string[];
  /** The proxies whose X-Forwarded-For is believed (Fastify's `trustProxy`), or false. */
  trustProxy: false | string[];
  /** Folder of the built web app. */
  staticDir: string;
  /** Key that signs access tokens; unset: one generated once and kept in the database. */
  jwtSecret: string | undefined;
  /**
   * Key that encrypts the secrets kept in the database (authenticator-app secrets); unset:
   * derived from the signing key (which may itself be in the database).
   */
  secretsKey: string | undefined;
  refreshTokenDays: number;
  /**
   * Public address of the site (OAuth redirect URLs, the passkeys' origin and relying party);
   * defaults to the listen address.
   */
  publicUrl: string;
  google: { issuer: string; clientId: string; clientSecret: string } | undefined;
  redisUrl: string | undefined;
  /** This server's name among several (`/api/health` says it): host and process by default. */
  instanceName: string;
  /** What every Redis key of this deployment starts with, so deployments can share a Redis. */
  redisKeyPrefix: string;
  /**
   * Attempts per minute at login (per client address and username), registration and
   * refresh (per address); an address may try three times as many usernames.
   */
  authRateLimit: number;
  /**
   * Password attempts evaluated per username a minute, from every address and server
   * together; beyond, 429 without hashing, unless the browser holds that user's device cookie.
   */
  passwordAttemptsPerUser: number;
  /** Past this event-loop delay the server sheds requests with 503 (0: never). */
  maxEventLoopDelayMs: number;
  /** How many laboratory jobs the first start generates. */
  seedJobs: number;
  /** The book lookup service (Google Books volumes API or one answering in its format). */
  booksApi: { url: string; apiKey: string | undefined; timeoutMs: number };
  /** What the hourly pruning deletes; unset parts keep everything. */
  retention: RetentionPolicy;
  /** How often an idle event stream sends a comment, so proxies keep it open. */
  eventsHeartbeatMs: number;
  /**
   * How many event streams one user may hold open on a server (a new one closes their
   * oldest), and a third of how many they may open in a minute (429 beyond).
   */
  eventStreamsPerUser: number;
}

/** How long history and audit events are kept, and how many versions an item keeps. */
export interface RetentionPolicy {
  historyDays: number | undefined;
  historyMaxVersions: number | undefined;
  auditDays: number | undefined;
}

/** A configuration value that cannot be used; its message names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates the configuration.
 * @throws ConfigError naming the first bad variable and what is wrong with it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = issue?.path[0]?.toString() ?? 'environment';
    // Secrets (and URLs that may carry credentials) are never echoed back.
    const value = secretVariables.has(variable) ? undefined : env[variable];
    throw new ConfigError(
      `Invalid ${variable}${value === undefined ? '' : ` (${JSON.stringify(value)})`}: ${issue?.message ?? 'invalid value'}`,
    );
  }
  const e = parsed.data;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    corsOrigins: e.CORS_ORIGINS,
    trustProxy: e.TRUST_PROXY,
    staticDir: path.resolve(e.STATIC_DIR ?? defaultStaticDir),
    jwtSecret: e.JWT_SECRET,
    secretsKey: e.SECRETS_KEY,
    refreshTokenDays: e.REFRESH_TOKEN_DAYS,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/$/, ''),
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? {
            issuer: e.GOOGLE_ISSUER,
            clientId: e.GOOGLE_CLIENT_ID,
            clientSecret: e.GOOGLE_CLIENT_SECRET,
          }
        : undefined,
    redisUrl: e.REDIS_URL,
    instanceName: e.INSTANCE_NAME ?? `${os.hostname()}-${process.pid}`,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    authRateLimit: e.AUTH_RATE_LIMIT,
    passwordAttemptsPerUser: e.PASSWORD_ATTEMPTS_PER_USER,
    maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
    seedJobs: e.SEED_JOBS,
    booksApi: { url: e.BOOKS_API_URL, apiKey: e.BOOKS_API_KEY, timeoutMs: e.BOOKS_API_TIMEOUT_MS },
    retention: {
      historyDays: e.HISTORY_RETENTION_DAYS,
      historyMaxVersions: e.HISTORY_MAX_VERSIONS,
      auditDays: e.AUDIT_RETENTION_DAYS,
    },
    eventsHeartbeatMs: e.EVENTS_HEARTBEAT_SECONDS * 1000,
    eventStreamsPerUser: e.EVENT_STREAMS_PER_USER,
  };
}
