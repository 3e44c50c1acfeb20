/**
 * Reference-style executables for the compatibility tests: each one follows the
 * contract of a kind of executable the reference harness (wedow/harness v0.2.0)
 * ships in its `plugins/` and `examples/` — written here from the contract
 * (PROTOCOLS.md), in bash with python3 for JSON, so that no `jq` is needed.
 *
 * @module
 */
import { join } from "node:path";
import { writeExe } from "../support/workspace.ts";

/** `python3 -c` one-liners the bash fixtures use for JSON. */
const PY_GET = `py_get() { python3 -c 'import json,sys; d=json.load(sys.stdin); v=d
for k in sys.argv[1].split("."):
    v = v[int(k)] if isinstance(v, list) else v.get(k)
print(v if isinstance(v, str) else json.dumps(v))' "$1"; }`;

/**
 * A tool that edits through a temporary file, like the reference `edit_file`
 * (`mktemp`, write, copy back): `{path, line}` appends a line. It prints where its
 * temporary file was and what TMPDIR was.
 */
export const MKTEMP_TOOL = `#!/usr/bin/env bash
set -euo pipefail
${PY_GET}
case "\${1:-}" in
  --schema) echo '{"name":"append_line","description":"append a line to a file","input_schema":{"type":"object","properties":{"path":{"type":"string"},"line":{"type":"string"}},"required":["path","line"]}}' ;;
  --describe) echo "append a line to a file (through a temporary file)" ;;
  --exec)
    input="$(cat)"
    path="$(printf '%s' "$input" | py_get path)"
    line="$(printf '%s' "$input" | py_get line)"
    [[ "$path" == /* ]] || path="\${HARNESS_CWD}/$path"
    tmp="$(mktemp)"
    trap 'rm -f "$tmp"' EXIT
    { [[ -f "$path" ]] && cat "$path"; printf '%s\\n' "$line"; } > "$tmp"
    cat "$tmp" > "$path"
    echo "appended to $path via $tmp (TMPDIR=\${TMPDIR:-unset})"
    ;;
esac
`;

/** A hook that needs a temporary file (like the reference `send/10-send`'s stderr capture). */
export const MKTEMP_HOOK = (record: string) =>
  `#!/usr/bin/env bash
set -euo pipefail
err_file="$(mktemp)"
trap 'rm -f "$err_file"' EXIT
cat > "$err_file"
echo "$err_file" >> "${record}"
cat "$err_file"
`;

/**
 * The reference's generic `auth-set` prompt (`auth/hooks.d/auth-set/50-default`): when no
 * earlier hook produced a credential, ask on /dev/tty without echo.
 */
export const TTY_AUTH_HOOK = `#!/usr/bin/env bash
set -euo pipefail
input="$(cat)"
if printf '%s' "$input" | python3 -c 'import json,sys; sys.exit(0 if "type" in json.load(sys.stdin) else 1)'; then
  printf '%s\\n' "$input"; exit 0
fi
printf "API key for %s: " "$HARNESS_AUTH_PROVIDER" > /dev/tty
read -rs raw_key < /dev/tty
echo > /dev/tty
[[ -z "$raw_key" ]] && { echo "aborted" >&2; exit 1; }
python3 -c 'import json,sys; print(json.dumps({"type":"api_key","key":sys.argv[1]}))' "$raw_key"
`;

/**
 * A provider-specific login hook (like `10-claude-oauth`): it only handles its own
 * provider and passes everything else through unchanged.
 */
export const PASS_THROUGH_AUTH_HOOK = `#!/usr/bin/env bash
set -euo pipefail
input="$(cat)"
[[ "\${HARNESS_AUTH_PROVIDER:-}" == "claude" ]] || { printf '%s\\n' "$input"; exit 0; }
echo '{"type":"oauth","access_token":"from-the-login-flow","refresh_token":"r","expires_at":"0"}'
`;

/**
 * The reference's approval gate (PROTOCOLS.md "Example: approval hook", `tool_exec/05-confirm`):
 * asks on /dev/tty before a bash call; anything but y stops the turn.
 */
export const TTY_APPROVAL_HOOK = `#!/usr/bin/env bash
set -euo pipefail
tc="$(cat)"
name="$(printf '%s' "$tc" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_calls"][0]["name"])')"
if [[ "$name" == "bash" ]]; then
  echo "[approval required] $name" >&2
  read -p "run it? [y/N] " -r reply < /dev/tty
  [[ "$reply" =~ ^[Yy] ]] || exit 1
fi
printf '%s\\n' "$tc"
`;

/** Writes executables under a `.harness/` directory: `{"tools/x": script, …}`. */
export async function install(harnessDir: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) await writeExe(join(harnessDir, rel), text);
}
