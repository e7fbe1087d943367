import policy from './vitest.mutation.policy.config';

// src/policy's command and tool modules are exercised where they are used (tool-command.test.ts)
// besides policy-*; publication (publish.ts) has pure tests in policy-publication.test.ts, since
// the publish-* tests push to git and time out under a mutation run's load.
export default { ...policy, test: { ...policy.test, include: ['test/unit/policy-*.test.ts', 'test/unit/tool-command.test.ts'] } };
