/**
 * When a simple name exists in several packages, the everyday ones win. The order is a
 * judgement call, kept short and explicit: the packages most Java code imports, then the
 * rest of `java.*`, then libraries, then `javax.*`/`jdk.*`, and the desktop toolkits last
 * (`java.awt.List` must never beat `java.util.List`).
 */
const COMMON_PACKAGES = [
  'java.util',
  'java.io',
  'java.nio.file',
  'java.time',
  'java.util.function',
  'java.util.stream',
  'java.util.concurrent',
  'java.math',
  'java.net',
  'java.nio.charset',
  'java.util.regex',
  'java.text',
];

const DESKTOP_PREFIXES = [
  'java.awt',
  'javax.swing',
  'java.applet',
  'java.beans',
  'javax.sound',
  'javax.print',
  'javax.imageio',
  'javax.accessibility',
];

function packageOf(qualifiedName: string): string {
  return qualifiedName.slice(0, qualifiedName.lastIndexOf('.'));
}

function hasPrefix(pkg: string, prefix: string): boolean {
  return pkg === prefix || pkg.startsWith(`${prefix}.`);
}

/** Lower is better. Ties mean the preference order cannot decide. */
export function packageRank(qualifiedName: string): number {
  const pkg = packageOf(qualifiedName);
  const common = COMMON_PACKAGES.indexOf(pkg);
  if (common !== -1) return common;
  if (DESKTOP_PREFIXES.some((prefix) => hasPrefix(pkg, prefix))) return 400;
  if (hasPrefix(pkg, 'java')) return 100;
  if (hasPrefix(pkg, 'javax') || hasPrefix(pkg, 'jdk') || hasPrefix(pkg, 'com.sun')) return 300;
  return 200;
}
