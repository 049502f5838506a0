#!/usr/bin/env bash
# `npm test`: every check and test of the project, in the order that keeps both cores of the CI
# machine busy (docs/testing.md, "How long it takes"; ADR 0084). The type check is one thread, and
# so is each document check: they run as two lanes side by side, the second lane also building the
# client the browser tests serve. Then vitest (two workers), then Playwright on that build. Any
# failure stops the run, as the `&&` chain this replaces did; each lane's output is printed whole
# when it ends, so the log reads in order.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d "${TMPDIR:-/tmp}/parlay-test-run-XXXXXX")"
trap 'rm -rf "$work"' EXIT
dist="$work/dist"
mkdir -p "$dist"

lane() { # lane <name> <command…>: runs the command, its output into $work/<name>.log
  local name="$1"
  shift
  local started=$SECONDS
  if "$@" >"$work/$name.log" 2>&1; then echo "ok $((SECONDS - started))" >"$work/$name.status"; else echo "failed $((SECONDS - started))" >"$work/$name.status"; fi
}

documents_and_build() {
  npm run walls && npm run schema-lint && npm run schemas:check && npm run docs:check && npm run check:length && echo "> client build for the browser tests" && npx tsx tests/e2e/client-build.ts "$dist"
}

lane types npm run typecheck &
types=$!
lane documents documents_and_build &
documents=$!
wait "$types" "$documents"

failed=0
for name in types documents; do
  read -r status seconds <"$work/$name.status"
  echo "── $name: $status in ${seconds} s"
  cat "$work/$name.log"
  [ "$status" = ok ] || failed=1
done
[ "$failed" = 0 ] || exit 1

started=$SECONDS
npx vitest run
echo "── vitest: $((SECONDS - started)) s"

started=$SECONDS
PARLAY_E2E_DIST="$dist" npx playwright test -c tests/e2e/playwright.config.ts
echo "── playwright: $((SECONDS - started)) s"
