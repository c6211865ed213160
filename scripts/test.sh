#!/usr/bin/env bash
# README command 2 (`npm test`): installs what is missing, typechecks, lints, builds, packages the .vsix,
# then runs the unit, webview and end-to-end tests one suite after the other (each serially), checks
# that nothing the run started is still running, and ends with one plain line "N passed, N failed".
# Exits non-zero if anything failed.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
started=$SECONDS
# Every process this run starts inherits the marker, so the leftover check at the end finds what
# is still running (scripts/leftovers.mjs).
TANDEM_TEST_RUN="$(cat /proc/sys/kernel/random/uuid 2>/dev/null || echo "run-$$-$RANDOM")"
export TANDEM_TEST_RUN
logs="$(mktemp -d "${TMPDIR:-/tmp}/tandem-test.XXXXXX")"
passed=0
failed=0
broken=()

step() { # name, command...: a build step; its failure is reported and counted
  local name="$1"; shift
  echo "==> $name"
  if ! "$@"; then
    echo "==> $name FAILED"
    broken+=("$name")
    return 1
  fi
}

suite() { # name, command...: a node:test run; its pass/fail counts are added to the totals
  local name="$1"; shift
  local log="$logs/$name.log" t0=$SECONDS
  echo "==> $name"
  # The spec reporter for humans (also when piped); its "ℹ pass N" / "ℹ fail N" lines are summed.
  NODE_OPTIONS="--test-reporter=spec ${NODE_OPTIONS:-}" "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local p f
  p=$(grep -aE '^(ℹ|#) pass [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  f=$(grep -aE '^(ℹ|#) fail [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  echo "==> $name: ${p:-0} passed, ${f:-0} failed in $((SECONDS - t0)) s"
  if [ "$rc" -ne 0 ]; then
    # A run that crashed before reporting still counts as a failure.
    [ "${f:-0}" -gt 0 ] || failed=$((failed + 1))
    broken+=("$name")
  fi
}

if [ ! -d node_modules ]; then
  step "npm ci" npm ci --no-fund --no-audit || { echo "0 passed, 1 failed"; exit 1; }
fi
step "setup e2e (code-server, chromium)" bash scripts/setupE2e.sh
# `tsc -b`: the protocol, host (no DOM), webview (no Node, only src/protocol of src/) and test projects.
step "typecheck" npm run --silent typecheck
step "lint" npm run --silent lint
step "build" npm run --silent build
packaged=1
mkdir -p dist-vsix  # vsce -o does not create the folder
step "package .vsix" npm run --silent package || packaged=0

suite unit npm run --silent test:unit
suite webview npm run --silent test:webview
# A webview test file that failed runs once more on its own. Passing then counts (a wait the slow CI
# machine ran out, like e2e's second attempt), but it is named at the end so its wait gets fixed.
rerun_webview=()
if [[ " ${broken[*]} " == *" webview "* ]]; then
  mapfile -t rerun_webview < <(grep -aoE '^test at test/webview/[A-Za-z0-9_.-]+\.test\.ts' "$logs/webview.log" | sed 's/^test at //' | sort -u)
fi
if [ "${#rerun_webview[@]}" -gt 0 ]; then
  first_failed=$(grep -aE '^(ℹ|#) fail [0-9]+' "$logs/webview.log" | tail -1 | grep -oE '[0-9]+$' || echo 1)
  echo "==> webview: running ${rerun_webview[*]} once more"
  if NODE_OPTIONS="--test-reporter=spec ${NODE_OPTIONS:-}" node --import tsx --test --test-concurrency=1 "${rerun_webview[@]}" > "$logs/webview-again.log" 2>&1; then
    failed=$((failed - first_failed))
    passed=$((passed + first_failed))
    kept=()
    for b in "${broken[@]}"; do [ "$b" = webview ] || kept+=("$b"); done
    broken=("${kept[@]}")
    echo "==> webview: passed on the second run"
  else
    cat "$logs/webview-again.log"
    echo "==> webview: failed again"
    rerun_webview=()
  fi
fi
if [ "$packaged" = 1 ]; then
  # One code-server for the whole e2e run (the test files attach to it through $TANDEM_E2E_SERVER).
  suite e2e node --import tsx test/e2e/harness/cli.ts run -- npm run --silent test:e2e
else
  echo "==> e2e skipped: no .vsix"
  failed=$((failed + 1))
fi

# A scenario that passed only on its second attempt (test/e2e/harness/e2e.ts) passed, but is named.
if [ -f "$logs/e2e.log" ] && grep -aq '^\[e2e\] flaky: ' "$logs/e2e.log"; then
  echo "==> e2e scenarios that passed on a second attempt (fix their waits):"
  grep -a '^\[e2e\] flaky: ' "$logs/e2e.log" | sed 's/^/    /'
fi

if [ "${#rerun_webview[@]}" -gt 0 ]; then
  echo "==> webview test files that passed on a second run (fix their waits; first failure in $logs/webview.log):"
  printf '    %s\n' "${rerun_webview[@]}"
fi

echo "==> leftover processes"
if ! node scripts/leftovers.mjs "$TANDEM_TEST_RUN" $$; then
  failed=$((failed + 1))
  broken+=("leftover processes")
fi

echo
echo "npm test took $((SECONDS - started)) s; suite logs in $logs"
if [ "${#broken[@]}" -gt 0 ]; then
  echo "failed steps: ${broken[*]}"
  [ "$failed" -gt 0 ] || failed=1
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "${#broken[@]}" -eq 0 ]
