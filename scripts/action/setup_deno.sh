#!/usr/bin/env bash
# Step "Set up Deno" of action.yml: the Deno hs runs on. A `deno` already on PATH at
# $HS_DENO_VERSION is used as it is; otherwise Deno is installed from npm (the `deno` package,
# whose platform binary comes as an optional dependency) into $RUNNER_TEMP, and its bin
# directory is added to $GITHUB_PATH for the next steps.
set -euo pipefail
want="${HS_DENO_VERSION:?HS_DENO_VERSION is not set}"
if command -v deno >/dev/null 2>&1; then
  have="$(deno --version | head -n 1 | awk '{print $2}')"
  if [ "$have" = "$want" ]; then
    echo "hs: using deno $have from $(command -v deno)"
    exit 0
  fi
  echo "hs: deno $have is on PATH; installing deno $want from npm"
fi
prefix="${RUNNER_TEMP:?RUNNER_TEMP is not set}/hs-deno-$want"
npm install --prefix "$prefix" --no-save --no-audit --no-fund "deno@$want"
echo "$prefix/node_modules/.bin" >> "${GITHUB_PATH:?GITHUB_PATH is not set}"
"$prefix/node_modules/.bin/deno" --version
