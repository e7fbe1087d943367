#!/bin/sh
# Checks the bench corpus: every case's broken project must fail `mvn -o -q verify` the
# way case.json says (compile or test), and pass once its fix.patch is applied with
# `git apply`. Usage: bench/cases/check.sh [CASE...]   (needs `npm run build` first)
set -u
here=$(cd "$(dirname -- "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ ! -f "$root/dist/bench/cases.js" ]; then
  echo "check.sh: $root/dist/bench/cases.js is missing; run npm run build first" >&2
  exit 2
fi
export MAVEN_OPTS="${MAVEN_OPTS:--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"
only=" $* "
checked=0
failed=0
for dir in "$here"/*/; do
  name=$(basename "$dir")
  case "$name" in _*) continue ;; esac
  if [ "$only" != "  " ] && ! printf '%s' "$only" | grep -q " $name "; then continue; fi
  checked=$((checked + 1))
  work=$(mktemp -d)
  project="$work/$name"
  node --input-type=module -e '
    const [casesDir, name, dest, lib] = process.argv.slice(1);
    const { loadBenchCases, materialiseCase } = await import(lib);
    const [benchCase] = await loadBenchCases(casesDir, [name]);
    await materialiseCase(benchCase, dest);
  ' "$here" "$name" "$project" "$root/dist/bench/cases.js" || { echo "FAIL $name: could not copy the case"; failed=$((failed + 1)); rm -rf "$work"; continue; }
  kind=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).kind)' "$dir/case.json")
  problem=
  if (cd "$project" && mvn -o -q verify >"$work/broken.log" 2>&1); then
    problem="the broken project builds"
  elif [ "$kind" = compile ] && ! grep -q 'COMPILATION ERROR' "$work/broken.log"; then
    problem="kind is compile but the log has no COMPILATION ERROR"
  elif [ "$kind" = test ] && ! grep -Eq 'Tests run:.*(Failures: [1-9]|Errors: [1-9])' "$work/broken.log"; then
    problem="kind is test but no test failed"
  elif ! (cd "$project" && git apply --check "$dir/fix.patch" && git apply "$dir/fix.patch") >"$work/apply.log" 2>&1; then
    problem="fix.patch does not apply: $(head -n 1 "$work/apply.log")"
  elif ! (cd "$project" && mvn -o -q verify >"$work/fixed.log" 2>&1); then
    problem="still fails with fix.patch: $(grep -m 1 ERROR "$work/fixed.log")"
  fi
  if [ -n "$problem" ]; then
    echo "FAIL $name: $problem"
    failed=$((failed + 1))
  else
    echo "ok   $name ($kind)"
  fi
  rm -rf "$work"
done
echo "$checked cases checked, $failed failed"
[ "$failed" -eq 0 ]
