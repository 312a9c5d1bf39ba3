import type { Config } from 'jest';

const moduleNameMapper = {
  // A catalogue's parts are the whole catalogue in the tests: every screen's texts at once.
  '^(.*locales/\\w+\\.json)\\?\\w+$': '$1',
  '^@/(.*)$': '<rootDir>/src/$1',
  '^@common/(.*)$': '<rootDir>/common/$1',
  '^@server/(.*)$': '<rootDir>/server/$1',
};

// ESM-only packages that CommonJS code requires; ts-jest turns them into CommonJS.
const esmOnly = [
  'content-disposition',
  'cookie',
  'jose',
  'openid-client',
  'oauth4webapi',
  'oidc-provider',
  '@scure/base',
  '@noble/hashes',
];

// Packages that ship only ES modules (msw's dependencies, eventsource-parser, Lingui); the client
// tests load them as CommonJS.
const mswEsmOnly = [
  'rettime',
  'until-async',
  '@open-draft/deferred-promise',
  'eventsource-parser',
  '@lingui',
  '@messageformat',
];

const config: Config = {
  // Server tests open real databases; a loaded machine needs the headroom.
  testTimeout: 30_000,
  projects: [
    {
      displayName: 'client',
      testEnvironment: '<rootDir>/__tests__/client/setup/jsdomEnvironment.js',
      // msw's `msw/node` has no 'browser' export: resolve packages as Node does.
      testEnvironmentOptions: { customExportConditions: [''] },
      testMatch: ['<rootDir>/__tests__/client/**/*.test.{ts,tsx}'],
      setupFilesAfterEnv: ['<rootDir>/__tests__/client/setup/setupTests.ts'],
      transform: {
        // The message catalogues, compiled as the build compiles them.
        '/i18n/locales/\\w+\\.json$': '<rootDir>/scripts/catalogue-loader.cjs',
        '^.+\\.tsx?$': ['ts-jest', {}],
        '^.+\\.m?js$': ['ts-jest', { tsconfig: { allowJs: true } }],
      },
      transformIgnorePatterns: [`/node_modules/(?!(${mswEsmOnly.join('|')})/)`],
      moduleNameMapper,
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/__tests__/server/**/*.test.ts'],
      globalSetup: '<rootDir>/__tests__/server/setup/globalSetup.ts',
      transform: { '^.+\\.[tj]sx?$': ['ts-jest', { tsconfig: { allowJs: true } }] },
      // Judged at the innermost node_modules: an ES-only package may sit inside another's.
      transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)(?!.*/node_modules/)`],
      moduleNameMapper,
    },
  ],
};

export default config;
