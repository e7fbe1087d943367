// The entry of dist/vendor/octokit.mjs (scripts/bundle-octokit.mjs).
export { Octokit } from '@octokit/rest';
