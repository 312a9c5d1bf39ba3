// Zod compiles its object parsers with `new Function` when it may; our Content-Security-
// Policy forbids that, and even zod's probe for it reports a violation. Zod takes its
// settings from this global (shared by every copy of zod on a page, created if missing),
// so setting `jitless` here, before any schema's chunk loads, needs none of zod's code on
// the first page (`z.config` would bring 3 KB). The browser tests fail on any violation.
const settings = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
settings.__zod_globalConfig = { ...settings.__zod_globalConfig, jitless: true };

export {};
