import policy from './vitest.mutation.policy.config';

// src/policy's command, tool and publication modules are exercised where they are used: the
// tool command (tool-command.test.ts) and publication (publish-*.test.ts) besides policy-*.
export default { ...policy, test: { ...policy.test, include: ['test/unit/policy-*.test.ts', 'test/unit/tool-command.test.ts', 'test/unit/publish-*.test.ts'] } };
