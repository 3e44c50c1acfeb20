#!/usr/bin/env bash
# Step "Run hs agent" of action.yml: one headless turn in the workspace (the step's working
# directory). The session lands in a fresh HARNESS_SESSIONS under $RUNNER_TEMP, with the
# `--events` stream (also this step's log: one JSON event a line) and the session's archive
# beside it: that folder is the artifact. A provider given as .conf text is written into a
# fresh HARNESS_HOME (unless one is set) and selected. This step never fails over hs's exit
# code: it records it (`exit-code`), and the action's last step fails with it, after the
# summary and the upload.
set -uo pipefail
base="$(mktemp -d "${RUNNER_TEMP:?RUNNER_TEMP is not set}/hs.XXXXXX")"
art="$base/artifact"
mkdir -p "$art/sessions"
export HARNESS_SESSIONS="$art/sessions"
export HARNESS_HOME="${HARNESS_HOME:-$base/home}"
mkdir -p "$HARNESS_HOME"
if [ -n "${HS_MAX_TURNS:-}" ]; then export HARNESS_MAX_TURNS="$HS_MAX_TURNS"; fi
args=(agent --events)
case "${HS_PROVIDER:-}" in
  "") ;;
  *$'\n'* | *=*)
    # .conf text: a provider of this run's HARNESS_HOME
    mkdir -p "$HARNESS_HOME/providers"
    printf '%s\n' "$HS_PROVIDER" > "$HARNESS_HOME/providers/hs-action.conf"
    args+=(--provider hs-action) ;;
  *) args+=(--provider "$HS_PROVIDER") ;;
esac
if [ -n "${HS_MODEL:-}" ]; then args+=(--model "$HS_MODEL"); fi
if [ -n "${HS_FLOOR:-}" ]; then args+=(--floor "$HS_FLOOR"); fi
if [ "${HS_TRUST_WORKSPACE:-false}" = "true" ]; then args+=(--trust-workspace); fi
hs() {
  deno task -q --config "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}/deno.json" hs "$@"
}
printf '%s' "${HS_PROMPT:?the prompt input is empty}" | hs "${args[@]}" | tee "$art/events.jsonl"
rc="${PIPESTATUS[1]}"
echo "hs: exit code $rc"
# the archive `hs session import` takes (none when no session was kept)
(cd "$art" && hs session export) || echo "hs: no session to export"
session="$(ls "$art/sessions" | head -n 1)"
name="${HS_ARTIFACT_NAME:-hs-${GITHUB_JOB:-job}-${session:-none}}"
{
  echo "exit-code=$rc"
  echo "artifact-dir=$art"
  echo "artifact-name=$name"
} >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
