// Layer rules, checked in `npm run check` (see docs/architecture.md, "Layers").
// core is pure and shared; adapters wrap heavy libraries; workers are transport; the UI reaches
// workers and adapters only through its composition root; the CLI never imports the UI.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import arrows point one way: a circle makes the load order and the layering unreadable.',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular-types-in-core',
      severity: 'error',
      comment: 'core has no circles at all, not even through type-only imports.',
      from: { path: '^src/core/' },
      to: { circular: true },
    },
    {
      name: 'core-stays-pure',
      severity: 'error',
      comment: 'core is shared by page and CLI: it never imports adapters, workers, the UI or the CLI.',
      from: { path: '^src/core/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^src/(adapters|worker|ui|cli)/' },
    },
    {
      name: 'adapters-below-transport',
      severity: 'error',
      from: { path: '^src/adapters/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^src/(worker|ui|cli)/' },
    },
    {
      name: 'workers-are-transport',
      severity: 'error',
      from: { path: '^src/worker/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^src/(ui|cli)/' },
    },
    {
      name: 'cli-never-imports-ui',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/ui/' },
    },
    {
      name: 'ui-reaches-workers-through-services',
      severity: 'error',
      comment: 'Only the composition root (src/ui/services*) may import workers and adapters.',
      from: { path: '^src/ui/', pathNot: ['^src/ui/services', '\\.test\\.tsx?$'] },
      to: { path: '^src/(worker|adapters)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'one-composition-root',
      severity: 'error',
      comment: 'Only main.tsx creates the real services; everything else takes them from ServicesProvider.',
      from: { path: '^src/ui/', pathNot: ['^src/ui/main\\.tsx$', '^src/ui/services/'] },
      to: { path: '^src/ui/services/(index|model-factory)\\.tsx?$' },
    },
    {
      name: 'features-use-actions-store-services',
      severity: 'error',
      comment:
        'A feature talks to the world through actions, the store and the services, never through another feature.',
      from: { path: '^src/ui/features/([^/]+)/' },
      to: { path: '^src/ui/features/', pathNot: '^src/ui/features/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|test-fixtures)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
