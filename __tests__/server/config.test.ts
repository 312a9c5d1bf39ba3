import { ConfigError, loadConfig } from '@server/config';

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      logLevel: 'info',
      databaseUrl: undefined,
      adminPassword: undefined,
      corsOrigins: [],
      trustProxy: false,
      retention: { historyDays: undefined, historyMaxVersions: undefined, auditDays: undefined },
      redisKeyPrefix: 'lims:',
      maxEventLoopDelayMs: 1000,
    });
    expect(config.dataDir).toBe(`${process.cwd()}/data`);
  });

  it('reads every variable it knows', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/somewhere',
      DATABASE_URL: 'postgres://app@db.example:5432/app',
      ADMIN_PASSWORD: 'a-long-password',
      LOG_LEVEL: 'debug',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      TRUST_PROXY: '10.0.0.0/8, 192.0.2.1, ::1, loopback',
      STATIC_DIR: '/srv/app',
      HISTORY_RETENTION_DAYS: '365',
      HISTORY_MAX_VERSIONS: '50',
      AUDIT_RETENTION_DAYS: '90',
      INSTANCE_NAME: 'api-1',
      REDIS_KEY_PREFIX: 'staging:',
      MAX_EVENT_LOOP_DELAY_MS: '250',
    });
    expect(config).toMatchObject({
      instanceName: 'api-1',
      redisKeyPrefix: 'staging:',
      maxEventLoopDelayMs: 250,
      retention: { historyDays: 365, historyMaxVersions: 50, auditDays: 90 },
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/tmp/somewhere',
      databaseUrl: 'postgres://app@db.example:5432/app',
      adminPassword: 'a-long-password',
      logLevel: 'debug',
      corsOrigins: ['https://a.example', 'https://b.example'],
      trustProxy: ['10.0.0.0/8', '192.0.2.1', '::1', 'loopback'],
      staticDir: '/srv/app',
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['CORS_ORIGINS', 'https://a.example, not an origin'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.1, proxy.example'],
    ['DATABASE_URL', 'mysql://db.example/app'],
    ['ADMIN_PASSWORD', 'short'],
    ['HISTORY_RETENTION_DAYS', '0'],
    ['HISTORY_MAX_VERSIONS', '2.5'],
    ['AUDIT_RETENTION_DAYS', 'forever'],
    ['INSTANCE_NAME', 'api 1'],
    ['REDIS_KEY_PREFIX', 'a*'],
    ['MAX_EVENT_LOOP_DELAY_MS', '-1'],
  ])('rejects %s=%s with a message naming the variable', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`^Invalid ${variable}\\b`));
  });

  it('never echoes a secret in its message', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short' })).toThrow(/^Invalid ADMIN_PASSWORD: /);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/app' })).not.toThrow(
      /hunter2/,
    );
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
    });
  });
});
