/**
 * The walls between Parlay's four parts, by where code runs (issue 32; docs/architecture.md,
 * "The four parts"). `npm run walls` checks them; tools/test.sh runs it in `npm test`.
 *
 *   server/  ──►  engine/ssr.tsx (the one door into the browser runtime, for the first screen)
 *            ──►  tools/schema-lint/index.ts (the document tools' one entry)
 *            ──►  kernel/
 *   engine/  ──►  kernel/            studio/ ──► kernel/
 *   tools/schema-lint/ ──► kernel/   kernel/ ──► nothing of ours, no React/zustand, no node: builtins
 *
 * Type-only imports count for the walls (a type is still a dependency on that part). Every import
 * counts for circles too: those that run at load, type-only ones and lazy `import()` (a type circle
 * still ties two files together). The one circle allowed is the renderer recursion: RenderNode.tsx →
 * registry.ts → a node that renders its children with RenderNode.
 */
const PARTS_OTHER_THAN = (part) => `^(${['kernel', 'engine', 'server', 'tools', 'studio', 'web'].filter((p) => p !== part).join('|')})/`
const RENDERER_RECURSION = '^engine/renderers/(RenderNode\\.tsx|registry\\.ts|nodes/[^/]+\\.tsx)$'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'kernel-imports-no-part',
      comment: 'kernel/ holds the pure shared rules: it imports nothing of engine/, server/, tools/, studio/ or web/.',
      severity: 'error',
      from: { path: '^kernel/' },
      to: { path: PARTS_OTHER_THAN('kernel') },
    },
    {
      name: 'kernel-no-node',
      comment: 'kernel/ runs in the browser and on the server: no node: builtins.',
      severity: 'error',
      from: { path: '^kernel/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'kernel-no-ui',
      comment: 'kernel/ holds rules, not a UI: no React, no router, no zustand, no rjsf.',
      severity: 'error',
      from: { path: '^kernel/' },
      to: { path: ['(^|/)node_modules/(react|react-dom|react-router|react-router-dom|zustand|@rjsf/[^/]+)/', '^(react|react-dom|react-router|react-router-dom|zustand|@rjsf/[^/]+)(/|$)'] },
    },
    {
      name: 'engine-imports-only-kernel',
      comment: 'engine/ is the browser runtime: besides itself it imports only kernel/.',
      severity: 'error',
      from: { path: '^engine/' },
      to: { path: PARTS_OTHER_THAN('engine'), pathNot: '^kernel/' },
    },
    {
      name: 'engine-no-node',
      comment: 'engine/ runs in the browser (and, through engine/ssr.tsx, renders there on the server): no node: builtins.',
      severity: 'error',
      from: { path: '^engine/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'tools-import-only-kernel',
      comment: 'the document tools (tools/schema-lint) import only kernel/ besides themselves.',
      severity: 'error',
      from: { path: '^tools/schema-lint/' },
      to: { path: '^(engine|server|studio|web|tools)/', pathNot: ['^kernel/', '^tools/schema-lint/'] },
    },
    {
      name: 'server-through-the-doors',
      comment: 'server/ imports kernel/, the document tools only through tools/schema-lint/index.ts and the browser runtime only through engine/ssr.tsx.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: PARTS_OTHER_THAN('server'), pathNot: ['^kernel/', '^tools/schema-lint/index\\.ts$', '^engine/ssr\\.tsx$'] },
    },
    {
      name: 'studio-imports-only-kernel',
      comment: 'studio/ is a browser app of its own: besides itself it imports only kernel/.',
      severity: 'error',
      from: { path: '^studio/' },
      to: { path: PARTS_OTHER_THAN('studio'), pathNot: '^kernel/' },
    },
    {
      name: 'document-tools-through-their-entry',
      comment: 'the CLIs (tools/cli) use the document tools as the server does: through tools/schema-lint/index.ts.',
      severity: 'error',
      from: { path: '^tools/cli/' },
      to: { path: '^tools/schema-lint/', pathNot: '^tools/schema-lint/index\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'no circle of imports (type-only ones too), except the renderer recursion (RenderNode → registry → a node that renders children) and a lazy import() closing a circle: a lazy import is a chunk boundary the build needs (auth → regulation: the monitor in its own module split four shared scripts off the entry).',
      severity: 'error',
      from: { path: '^(kernel|engine|server|tools|studio|web)/' },
      to: {
        circular: true,
        via: { pathNot: RENDERER_RECURSION },
        viaOnly: { dependencyTypesNot: ['dynamic-import'] },
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^node_modules/', '\\.d\\.ts$'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: {
      // the drawing in docs/architecture-graph.svg (npm run walls:graph): each part one box, the two doors their own
      archi: {
        collapsePattern: '^(engine/ssr\\.tsx|tools/schema-lint/index\\.ts|kernel|engine|tools/schema-lint|server|studio)',
        theme: { graph: { rankdir: 'TB', ranksep: '0.6', nodesep: '0.5' }, node: { fontsize: '12' } },
      },
    },
  },
}
