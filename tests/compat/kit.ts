/**
 * Reference-style executables for the compatibility tests: each one follows the
 * contract of a kind of executable the reference harness (wedow/harness v0.2.0)
 * ships in its `plugins/` and `examples/` — written here from the contract
 * (PROTOCOLS.md), in bash with python3 for JSON, so that no `jq` is needed.
 *
 * The tests of `tests/compat/`, by item of issue 10, all through `deno task hs`:
 *
 * | file | items |
 * | --- | --- |
 * | `tmp_test.ts` | 1: `mktemp` in tools and hooks, a private `/tmp` per sandboxed child |
 * | `terminal_test.ts` | 2, 6: `auth-set` and `tool_exec` hooks on a pseudo-terminal; pass-through `auth-set` chains |
 * | `env_test.ts` | 3, 7: the user's `HARNESS_*` reach every child; `commands/<name>` over a built-in |
 * | `sources_test.ts` | 4, 9: the `sources` stage; the built-ins in `HARNESS_SOURCES` for reference assemble hooks |
 * | `provider_test.ts` | 5, 11: executable providers' credentials and `.auth-cache.json`; protocol display |
 * | `dispatch_test.ts` | 8: a dispatching `send` hook's `.tool_dispatch/` results, each tool run once |
 * | `anthropic_stream_test.ts` | 10: a recorded stream ending without the final blank line |
 * | `reference_commands_test.ts` | issue 24 point 11: `$HARNESS_ROOT/bin/harness`, `commands/version`, presence markers |
 *
 * `hs acp` (item 12) is tested end to end in `tests/e2e/acp_test.ts`.
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

/**
 * A `send/10-send` dispatcher in the reference's style: it runs the provider (found in
 * `HARNESS_SOURCES`) with `--stream` and a fifo in `HARNESS_TOOL_FIFO`; a background
 * reader runs every tool call the provider streams into it (found in `HARNESS_SOURCES`)
 * and writes `$HARNESS_SESSION/.tool_dispatch/<id>.json` ({result, error}) for
 * `tool_exec/10-exec` to pick up. Its stderr capture uses `mktemp`.
 */
export const DISPATCH_SEND_HOOK = `#!/usr/bin/env bash
set -euo pipefail
payload="$(cat)"
IFS=':' read -ra sources <<< "\${HARNESS_SOURCES}"
find_in() {
  local i
  for (( i=\${#sources[@]}-1; i>=0; i-- )); do
    [[ -x "\${sources[i]}/$1/$2" ]] && { echo "\${sources[i]}/$1/$2"; return; }
  done
  return 0
}
provider_bin="$(find_in providers "\${HARNESS_PROVIDER}")"
[[ -n "$provider_bin" ]] || { echo "{\\"error\\": \\"provider \${HARNESS_PROVIDER} not found\\"}"; exit 1; }
dispatch_dir="\${HARNESS_SESSION}/.tool_dispatch"
rm -rf "$dispatch_dir"; mkdir -p "$dispatch_dir"; mkfifo "$dispatch_dir/.fifo"
(
  while IFS= read -r line; do
    [[ -z "$line" ]] && continue
    { read -r id; read -r name; read -r input; } < <(printf '%s' "$line" |
      python3 -c 'import json,sys; c=json.load(sys.stdin); print(c["id"]); print(c["name"]); print(json.dumps(c["input"]))')
    bin="$(find_in tools "$name")"
    (
      if r="$(cd "\${HARNESS_CWD}" && printf '%s' "$input" | "$bin" --exec 2>&1)"; then e=false; else e=true; fi
      python3 -c 'import json,sys; print(json.dumps({"result": sys.argv[1], "error": sys.argv[2] == "true"}))' "$r" "$e" > "$dispatch_dir/$id.json"
    ) &
  done < "$dispatch_dir/.fifo"
  wait
) > /dev/null &
dispatcher=$!
exec 4> "$dispatch_dir/.fifo"
export HARNESS_TOOL_FIFO="$dispatch_dir/.fifo"
err_file="$(mktemp)"
trap 'rm -f "$err_file"' EXIT
if response="$(printf '%s' "$payload" | "$provider_bin" --stream 2> "$err_file")"; then
  exec 4>&-; wait "$dispatcher"; rm -f "$dispatch_dir/.fifo"
  cat "$err_file" >> "\${HARNESS_LOG}"
  printf '%s' "$response" | python3 -c 'import json,sys; d=json.load(sys.stdin); d["next_state"]="receive"; print(json.dumps(d))'
else
  rc=$?; exec 4>&-; wait "$dispatcher" || true
  python3 -c 'import json,sys; print(json.dumps({"error": sys.argv[1]}))' "$(cat "$err_file")"
  exit "$rc"
fi
`;

/**
 * An executable provider that streams its tool calls to `HARNESS_TOOL_FIFO` (like the
 * reference's providers under the dispatcher) and answers in Anthropic's shape without a
 * network: a `tally` call first, then, once a tool result came back, a final text.
 */
export const FIFO_PROVIDER = `#!/usr/bin/env python3
import json, os, sys
arg = sys.argv[1] if len(sys.argv) > 1 else ""
if arg == "--describe": print("scripted provider feeding the dispatcher"); sys.exit(0)
if arg == "--ready": sys.exit(0)
if arg == "--defaults": print("model=fifo-1\\nprotocol=anthropic"); sys.exit(0)
payload = json.load(sys.stdin)
last = payload["messages"][-1]
answered = isinstance(last.get("content"), list) and any(
    b.get("type") == "tool_result" for b in last["content"])
if answered:
    content = [{"type": "text", "text": "tallied: " + last["content"][0]["content"]}]
    stop = "end_turn"
else:
    call = {"id": "call_tally_1", "name": "tally", "input": {"n": 1}}
    fifo = os.environ.get("HARNESS_TOOL_FIFO")
    if "--stream" in sys.argv and fifo:
        with open(fifo, "w") as f: f.write(json.dumps(call) + "\\n")
    content = [{"type": "text", "text": "Counting."}, dict(type="tool_use", **call)]
    stop = "tool_use"
print(json.dumps({"model": "fifo-1", "stop_reason": stop,
    "usage": {"input_tokens": 1, "output_tokens": 1}, "content": content}))
`;

/** A tool that records every run in `$HARNESS_CWD/runs.log`. */
export const TALLY_TOOL = `#!/usr/bin/env bash
case "\${1:-}" in
  --schema) echo '{"name":"tally","description":"count a run","input_schema":{"type":"object","properties":{"n":{"type":"number"}}}}' ;;
  --exec) cat >/dev/null; echo ran >> "\${HARNESS_CWD}/runs.log"; echo "run $(wc -l < "\${HARNESS_CWD}/runs.log")" ;;
esac
`;

/**
 * An OpenAI-compatible executable provider in the reference's style (`openai/providers/
 * openai`): its key from `OPENAI_API_KEY`, else `.auth-cache.json`; the neutral tool schemas
 * it is given converted to OpenAI's shape; one non-streaming request to `OPENAI_API_URL`.
 */
export const OPENAI_PROVIDER = `#!/usr/bin/env python3
import json, os, sys, urllib.request
arg = sys.argv[1] if len(sys.argv) > 1 else ""
cache_path = os.path.join(os.environ.get("HARNESS_HOME", ""), ".auth-cache.json")
def cached(name, field):
    try:
        with open(cache_path) as f: return json.load(f)[name][0].get(field)
    except Exception: return None
if arg == "--describe": print("OpenAI-compatible chat completions API"); sys.exit(0)
if arg == "--ready":
    ok = os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_API_URL") or cached("openai", "key")
    sys.exit(0 if ok else 1)
if arg == "--defaults": print("model=gpt-test"); sys.exit(0)
if arg == "--env":
    print("OPENAI_API_KEY      API key (required for OpenAI, optional for local servers)")
    print("OPENAI_API_URL      API endpoint")
    print("OPENAI_MAX_TOKENS   max response tokens (4096)")
    sys.exit(0)
key = os.environ.get("OPENAI_API_KEY") or cached("openai", "key")
if not key:
    print("OPENAI_API_KEY not set — run: hs auth set openai", file=sys.stderr); sys.exit(1)
payload = json.load(sys.stdin)
tools = [{"type": "function", "function": {"name": t["name"], "description": t["description"],
          "parameters": t["input_schema"]}} for t in payload.get("tools", [])]
messages = ([{"role": "system", "content": payload["system"]}] if payload.get("system") else []) + payload["messages"]
body = {"model": payload.get("model") or os.environ.get("HARNESS_MODEL"), "max_tokens": 4096,
        "messages": messages, "stream": False}
if tools: body["tools"] = tools
req = urllib.request.Request(os.environ["OPENAI_API_URL"], data=json.dumps(body).encode(),
    headers={"content-type": "application/json", "authorization": "Bearer " + key})
with urllib.request.urlopen(req, timeout=30) as r: print(r.read().decode())
`;

/**
 * An OAuth-style executable provider (like the reference's `chatgpt` and `claude`): it
 * reads its token only from `$HARNESS_HOME/.auth-cache.json`, names no key variable in
 * `--env`, and does not say which protocol it speaks. It answers in Anthropic's shape from
 * `VAULT_URL` (a Messages endpoint).
 */
export const CACHE_PROVIDER = `#!/usr/bin/env python3
import json, os, sys, urllib.request
arg = sys.argv[1] if len(sys.argv) > 1 else ""
cache_path = os.path.join(os.environ["HARNESS_HOME"], ".auth-cache.json")
def token():
    try:
        with open(cache_path) as f: return json.load(f)["vault"][0]["access_token"]
    except Exception: return None
if arg == "--describe": print("a provider reading its OAuth token from the auth cache"); sys.exit(0)
if arg == "--ready": sys.exit(0 if token() else 1)
if arg == "--defaults": print("model=vault-1"); sys.exit(0)
if arg == "--env": print("VAULT_URL   the endpoint"); sys.exit(0)
tok = token()
if not tok: print("no vault token — run: hs auth set vault", file=sys.stderr); sys.exit(1)
payload = json.load(sys.stdin)
body = {"model": payload.get("model"), "max_tokens": 1024, "messages": payload["messages"],
        "system": payload.get("system", ""), "tools": payload.get("tools", []), "stream": False}
req = urllib.request.Request(os.environ["VAULT_URL"], data=json.dumps(body).encode(),
    headers={"content-type": "application/json", "x-api-key": tok})
with urllib.request.urlopen(req, timeout=30) as r: print(r.read().decode())
`;

/** A `sources` hook that appends a directory to the list (like a team-wide plugin dir). */
export const ADD_SOURCE_HOOK = (dir: string) =>
  `#!/usr/bin/env python3
import json, sys
data = json.load(sys.stdin)
data["sources"] = data.get("sources", []) + [${JSON.stringify(dir)}]
print(json.dumps(data))
`;

/** A `sources` observer that records the list it sees, then passes it on unchanged. */
export const RECORD_SOURCES_HOOK = (record: string) =>
  `#!/usr/bin/env bash
input="$(cat)"
printf '%s\\n' "$input" >> ${JSON.stringify(record)}
printf '%s\\n' "$input"
`;

/**
 * The reference's `assemble/20-tools`, in its style: every executable `tools/*` of
 * `HARNESS_SOURCES` (the most local wins by name), each one's `--schema`, as `tools`.
 */
export const WALK_TOOLS_HOOK = `#!/usr/bin/env python3
import json, os, subprocess, sys
payload = json.load(sys.stdin)
found = {}
for src in os.environ["HARNESS_SOURCES"].split(":"):
    d = os.path.join(src, "tools")
    if not os.path.isdir(d): continue
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        if os.access(p, os.X_OK): found[name] = p
tools = []
for name, path in found.items():
    r = subprocess.run([path, "--schema"], capture_output=True, text=True)
    if r.returncode == 0: tools.append(json.loads(r.stdout))
payload["tools"] = tools
print(json.dumps(payload))
`;

/**
 * The reference's `assemble/30-prompts`, in its style: for each source of
 * `HARNESS_SOURCES`, the `AGENTS.md` beside it and its `prompts/*.md`, joined by blank lines.
 */
export const WALK_PROMPTS_HOOK = `#!/usr/bin/env python3
import json, os, sys
payload = json.load(sys.stdin)
parts = []
for src in os.environ["HARNESS_SOURCES"].split(":"):
    agents = os.path.join(os.path.dirname(src), "AGENTS.md")
    if os.path.isfile(agents): parts.append(open(agents).read().strip())
    d = os.path.join(src, "prompts")
    if os.path.isdir(d):
        for f in sorted(os.listdir(d)):
            if f.endswith(".md"): parts.append(open(os.path.join(d, f)).read().strip())
payload["system"] = "\\n\\n".join(p for p in parts if p)
payload["next_state"] = "send"
print(json.dumps(payload))
`;
