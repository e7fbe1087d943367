import base from './base.config';

// Only the unit tests that exercise src/report/review/ (mutation/slices/review.config.mjs): the
// review posted to the loopback GitHub/GitLab servers, and the pure suggestion logic.
export default { ...base, test: { ...base.test, include: ['test/unit/review-*.test.ts'] } };
