/** Near-miss matching for "did you mean" hints: flags, config keys, presets, lifecycle phases. */

/** Levenshtein distance: insertions, deletions and substitutions each cost 1. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidate nearest to `word` (case-insensitive), when it is near enough to be a typo. */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const tolerance = Math.max(2, Math.floor(word.length / 3));
  if (bestDistance <= tolerance) return best;
  // A longer name that shares most of the word's start: `edit-tests` for `edit-test-source`.
  const stem = word.toLowerCase().slice(0, Math.max(4, Math.ceil(word.length * 0.8)));
  return candidates.find((candidate) => word.length >= 4 && candidate.toLowerCase().startsWith(stem));
}
