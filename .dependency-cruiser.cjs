/**
 * Import boundaries, written down once (docs/architecture.md draws them). `npm run boundaries` fails on any
 * import that points up a layer, crosses into the embedded store, or closes a cycle.
 *
 * Layers, lowest first: a folder may import its own layer and the layers below, never above.
 */
const LAYERS = [
  ['runtime', 'errors', 'logging'], // what every part stands on: the process, the one error model, logs
  ['wire', 'chunking', 'config'], // the wire contract, the shared format, the frozen config
  ['store', 'embedding', 'journal', 'metrics', 'auth', 'client'], // ports, adapters, the durable journal
  ['parts', 'ingest', 'importers', 'retrieval', 'forgetting', 'viewer', 'maintenance', 'people'], // what the service does, its importers (they feed the journal as /save does), its data tools, and who is who
  ['core'], // the service core: which collection a bot uses now, the one set of operations, the one wiring
  ['http', 'interfaces'], // how the outside reaches it
  ['service', 'cli'], // the composition root and the command line
];

const folderPattern = (folders) => `^src/(${folders.join('|')})/`;
const upLayerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${index}-points-down`,
  comment: `${layer.join(', ')} may not import a higher layer (${LAYERS.slice(index + 1).flat().join(', ')})`,
  severity: 'error',
  from: { path: folderPattern(layer), pathNot: '\\.test\\.ts$|/test-support/' },
  to: { path: folderPattern(LAYERS.slice(index + 1).flat()) },
}));

module.exports = {
  forbidden: [
    ...upLayerRules,
    {
      name: 'qdrant-server-stands-alone',
      comment: 'the embedded Qdrant-compatible store imports only itself and src/runtime, tests included',
      severity: 'error',
      from: { path: '^src/qdrant-server/' },
      to: { path: '^src/', pathNot: '^src/(qdrant-server|runtime)/' },
    },
    {
      name: 'service-reaches-qdrant-server-only-to-start-it',
      comment: 'the service talks to the embedded store over its REST URL; only the composition root starts it',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(qdrant-server|service|cli)/' },
      to: { path: '^src/qdrant-server/' },
    },
    {
      name: 'interfaces-do-not-import-http',
      comment:
        'the interfaces (MCP, Discord) call the service through ingest, retrieval, forgetting and maintenance, never through its HTTP layer',
      severity: 'error',
      from: { path: '^src/interfaces/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'http-reaches-interfaces-only-for-mcp',
      comment: 'the HTTP layer serves one interface, MCP, from its route file (src/http/routes/mcp-route.ts) only',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/interfaces/', pathNot: '^src/interfaces/mcp/' },
    },
    {
      name: 'only-the-mcp-route-imports-mcp',
      comment: 'within src/http, only src/http/routes/mcp-route.ts may import src/interfaces/mcp',
      severity: 'error',
      from: { path: '^src/http/', pathNot: '^src/http/routes/mcp-route\\.ts$' },
      to: { path: '^src/interfaces/mcp/' },
    },
    {
      name: 'faces-call-the-operations',
      comment:
        'the faces (HTTP routes, Discord, MCP) reach the service through the operations (src/core/operations, and the HTTP app through src/core/service-deps.ts) and the wire types, never around them',
      severity: 'error',
      from: { path: '^src/(http|interfaces)/', pathNot: '\\.test\\.ts$|/test-support/' },
      to: {
        path: '^src/(core|parts|ingest|importers|retrieval|forgetting|viewer|maintenance|people|store|journal)/',
        pathNot: '^src/core/(operations/|service-deps\\.ts$)',
      },
    },
    {
      name: 'no-cycles',
      comment: 'no import cycles at run time (a cycle made only of `import type` vanishes when compiled)',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'tests-stay-out-of-the-product',
      comment: 'test files and test-support are imported only by tests and benchmarks',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.test\\.ts$|/test-support/|\\.fixture\\.ts$' },
      to: { path: '\\.test\\.ts$|/test-support/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
