/**
 * The house rules of the code, checked by `npm run lint:imports` (dependency-cruiser, in `npm test`'s
 * CI run): server features meet only through their doors, core and realtime know no feature, and no
 * import circle exists anywhere — type-only imports included.
 */
const test = '(\\.test\\.tsx?$|/test/)';
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle (type-only imports count): split the shared part out, or pass it through a domain event.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-knows-no-feature',
      comment: 'server/core/ is what every feature shares: it imports nothing else of the server.',
      severity: 'error',
      from: { path: '^server/core/', pathNot: test },
      to: { path: '^server/', pathNot: '^server/core/' },
    },
    {
      name: 'realtime-knows-no-feature',
      comment: 'server/realtime/ is the Socket.IO server and the cluster relay: features attach their rooms to it, not the other way round.',
      severity: 'error',
      from: { path: '^server/realtime/', pathNot: test },
      to: { path: '^server/', pathNot: '^server/(core|realtime)/' },
    },
    {
      name: 'features-meet-at-their-doors',
      comment: "A feature uses another (and core) only through that folder's index.ts; tests may reach inside.",
      severity: 'error',
      from: { path: '^server/([^/]+)/', pathNot: test },
      to: { path: '^server/[^/]+/', pathNot: ['^server/$1/', '^server/[^/]+/index\\.ts$', '^server/integrations/[^/]+/index\\.ts$'] },
    },
    {
      name: 'the-app-assembles-through-doors',
      comment: 'server/app.ts, routes.ts and main.ts assemble the features through their doors too.',
      severity: 'error',
      from: { path: '^server/[^/]+\\.ts$', pathNot: test },
      to: { path: '^server/[^/]+/', pathNot: ['^server/[^/]+/index\\.ts$', '^server/integrations/[^/]+/index\\.ts$'] },
    },
    {
      name: 'product-code-uses-no-test-helper',
      severity: 'error',
      from: { path: '^(server|web|common)/', pathNot: [test, '^server/test/', '^web/e2e/'] },
      to: { path: '^server/test/' },
    },
    {
      name: 'common-is-shared',
      comment: 'common/ runs in the browser and on the server: it imports neither.',
      severity: 'error',
      from: { path: '^common/' },
      to: { path: '^(server|web)/' },
    },
    {
      name: 'the-web-app-calls-the-server-over-http',
      severity: 'error',
      from: { path: '^web/' , pathNot: '^web/e2e/' },
      to: { path: '^server/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^dist/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
