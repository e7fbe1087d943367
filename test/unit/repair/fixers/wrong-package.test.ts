import { wrongPackageFixer } from '../../../../src/repair/fixers/wrong-package.js';
import { PROJECT_ROOT, testFixer } from '../../../helpers/fixer-tester.js';

const SLUGS = 'src/main/java/com/acme/util/Slugs.java';
const POST = 'src/main/java/com/acme/blog/Post.java';
const misplaced = 'package com.acme.utils;\n\npublic final class Slugs {}\n';
const post = 'package com.acme.blog;\n\nimport com.acme.util.Slugs;\n\nclass Post {}\n';

testFixer(wrongPackageFixer, [
  {
    name: 'rewrites the declaration of a duplicate class to the package its folder implies',
    files: { [SLUGS]: misplaced },
    log: [`[ERROR] ${PROJECT_ROOT}/${SLUGS}:[3,14] duplicate class: com.acme.utils.Slugs`],
    edit: { [SLUGS]: 'package com.acme.util;\n\npublic final class Slugs {}\n' },
    reason: `${SLUGS} declares package com.acme.utils but its folder is package com.acme.util`,
  },
  {
    name: 'follows the bad source file that an importing class cannot access',
    files: { [SLUGS]: misplaced, [POST]: post },
    log: [
      `[ERROR] ${PROJECT_ROOT}/${POST}:[3,21] cannot access com.acme.util.Slugs`,
      `  bad source file: ${PROJECT_ROOT}/${SLUGS}`,
      '    file does not contain class com.acme.util.Slugs',
      '    Please remove or make sure it appears in the correct subdirectory of the sourcepath.',
    ],
    edit: { [SLUGS]: 'package com.acme.util;\n\npublic final class Slugs {}\n' },
  },
  {
    name: 'proposes one change when both diagnostics lead to the same file',
    files: { [SLUGS]: misplaced, [POST]: post },
    log: [
      `[ERROR] ${PROJECT_ROOT}/${SLUGS}:[3,14] duplicate class: com.acme.utils.Slugs`,
      `[ERROR] ${PROJECT_ROOT}/${POST}:[3,21] cannot access com.acme.util.Slugs`,
      `  bad source file: ${PROJECT_ROOT}/${SLUGS}`,
    ],
    edit: { [SLUGS]: 'package com.acme.util;\n\npublic final class Slugs {}\n' },
  },
  {
    name: 'rewrites a test source in a module folder, below a leading comment',
    files: { 'core/src/test/java/a/b/CTest.java': '/* x */\npackage a.bb;\nclass CTest {}\n' },
    log: [`[ERROR] ${PROJECT_ROOT}/core/src/test/java/a/b/CTest.java:[3,1] duplicate class: a.bb.CTest`],
    edit: { 'core/src/test/java/a/b/CTest.java': '/* x */\npackage a.b;\nclass CTest {}\n' },
    reason: 'declares package a.bb but its folder is package a.b',
  },
  {
    name: 'leaves a file alone whose package agrees with its folder',
    files: { 'src/main/java/a/b/C.java': 'package a.b;\nclass C {}\n' },
    log: [`[ERROR] ${PROJECT_ROOT}/src/main/java/a/b/C.java:[2,1] duplicate class: a.b.C`],
    edit: 'none',
  },
  {
    name: 'leaves a file alone outside the Maven source layout',
    files: { 'other/a/b/C.java': 'package x;\nclass C {}\n' },
    log: [`[ERROR] ${PROJECT_ROOT}/other/a/b/C.java:[2,1] duplicate class: x.C`],
    edit: 'none',
  },
  {
    name: 'refuses a declaration wrapped over two lines',
    files: { [SLUGS]: 'package com.acme\n    .utils;\n\npublic final class Slugs {}\n' },
    log: [`[ERROR] ${PROJECT_ROOT}/${SLUGS}:[4,14] duplicate class: com.acme.utils.Slugs`],
    edit: 'none',
  },
]);
