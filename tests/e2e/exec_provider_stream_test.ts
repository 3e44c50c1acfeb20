/**
 * End-to-end: an executable provider run with `--stream` writes its own
 * `.stream` events; hs shows its text as it arrives (without writing it twice).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeWorkspace, runHs, writeExe, writeFile } from "../support/workspace.ts";

const PROVIDER = `#!/usr/bin/env python3
import json, os, sys, time
if len(sys.argv) > 1 and sys.argv[1] in ("--describe", "--ready", "--defaults"):
    if sys.argv[1] == "--defaults": print("model=stream-1")
    sys.exit(0)
streaming = "--stream" in sys.argv
json.load(sys.stdin)
parts = ["Hello", ", live", " world."]
if streaming:
    with open(os.path.join(os.environ["HARNESS_SESSION"], ".stream"), "a") as f:
        for p in parts:
            f.write(json.dumps({"type": "text", "text": p}) + "\\n"); f.flush(); time.sleep(0.1)
print(json.dumps({"model": "stream-1", "stop_reason": "end_turn",
    "usage": {"input_tokens": 3, "output_tokens": 3},
    "content": [{"type": "text", "text": "".join(parts)}]}))
`;

Deno.test("a --stream executable provider's text is shown live and written to .stream once", async () => {
  const w = await makeWorkspace();
  try {
    await writeExe(join(w.ws, ".harness/providers/streamer"), PROVIDER);
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=streamer\n");
    const r = await runHs(["--events", "hi"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const texts = events.filter((e) => e.type === "text");
    assert.deepEqual(texts.map((e) => e.text), ["Hello", ", live", " world."]);
    assert.ok(texts.every((e) => e.recorded === true));
    const end = events.find((e) => e.type === "turn_end");
    assert.equal(end.output, "Hello, live world.");
    const session = events.find((e) => e.type === "session").dir;
    const stream = Deno.readTextFileSync(join(session, ".stream")).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.deepEqual(stream.filter((e) => e.type === "text").map((e) => e.text), [
      "Hello",
      ", live",
      " world.",
    ]);
  } finally {
    await w.cleanup();
  }
});
