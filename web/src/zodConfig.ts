// zod would probe `new Function` to speed up parsing; our Content-Security-Policy forbids eval, and
// the probe alone reports a violation. Parse without it (imported first by main.tsx).
//
// zod keeps its settings in one object on globalThis, shared by every copy of the library and
// read when a schema is built; it takes an object already there as it is. Setting it here,
// without importing zod, keeps zod out of the entry chunk: a page downloads it with the first
// module that builds a schema. (e2e/security.test.ts fails on a violation if this stops working.)
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };

export {};
