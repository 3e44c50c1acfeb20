#!/usr/bin/env bash
# Builds dist/hs.js with `deno bundle` and runs the end-to-end tests against it
# under the release's baked permissions (scripts/build.ts BAKED). CI uses this
# where deno compile cannot download runtimes. Usage: scripts/bundle_e2e.sh
set -euo pipefail
cd "$(dirname "$0")/.."
deno run -A scripts/build.ts bundle
flags="$(deno run -A scripts/build.ts flags)"
out="$(deno run $flags dist/hs.js --version)"
echo "bundle: $out"
case "$out" in *"(rev "*) ;; *) echo "bundle --version lacks the git revision" >&2; exit 1 ;; esac
# tests/support/workspace.ts runs this command instead of `deno run -A main.ts`
export HS_E2E_CMD="run --quiet $flags $PWD/dist/hs.js"
# The end-to-end tests whose subject is what the process may reach (files, hosts, children,
# terminals). Left out, to keep CI within its budget: tests of Scheme-side pack logic (state,
# methods, notes, commands), of long sessions and the REPL's editor, the launcher's own tests
# and the installed `hs` (both are the launcher; the bundle is started without it: the install
# test compares the installed hs with the launcher's grant) and the browser test
# (tests/e2e/web_test.ts stays).
skip='^tests/e2e/(packs_(state|methods|notify|commands)|long_session|repl_long|launcher|install|web_browser)_test\.ts$'
files=()
for f in tests/e2e/*_test.ts; do
  [[ "$f" =~ $skip ]] || files+=("$f")
done
deno test -A --parallel "${files[@]}" tests/floor/escape_test.ts tests/floor/ask_test.ts
