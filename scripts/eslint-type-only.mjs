// The plugin API imports nothing at run time (an ESLint config block, on in eslint.config.js).
//
// `mvnx/plugin` is dist/plugins/contracts.js: a plugin imports it for its types, so a value
// import there would load that module, and all it imports, into every plugin (once it was
// zod and the whole config schema, for one list of words). Types come in by `import type`
// and go out by `export type`; a value the API needs is written out in the file.
// test/integration/plugin-types.test.ts measures what loading it loads.
const message =
  'src/plugins/contracts.ts imports nothing at run time (it is mvnx/plugin): use `import type` / `export type`, or write the value out here.';

export const TYPE_ONLY_FILES = ['src/plugins/contracts.ts'];

export const typeOnlyImports = {
  files: TYPE_ONLY_FILES,
  rules: {
    'no-restricted-syntax': [
      'error',
      { selector: "ImportDeclaration[importKind!='type']", message },
      { selector: "ExportNamedDeclaration[source][exportKind!='type']", message },
      { selector: "ExportAllDeclaration[exportKind!='type']", message },
      { selector: 'ImportExpression', message },
    ],
  },
};
