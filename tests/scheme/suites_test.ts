// The chibi-style suites in tests/scheme/suites/*.scm, run through `hs scheme FILE`: every
// `(test …)` must pass (the (chibi test) subset prints FAIL lines and errors at test-end).
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runSchemeCli } from "../../scheme/cli/run.ts";

const dir = new URL("./suites/", import.meta.url);
for (const entry of Deno.readDirSync(dir)) {
  if (!entry.name.endsWith(".scm")) continue;
  Deno.test(`suite: ${entry.name}`, async () => {
    let out = "", err = "";
    const code = await runSchemeCli([new URL(entry.name, dir).pathname], {
      stdin: new ReadableStream({ start: (c) => c.close() }),
      stdout: (s) => (out += s),
      stderr: (s) => (err += s),
      isTerminal: false,
    });
    ok(!out.includes("FAIL"), out);
    assertEquals(err, "");
    assertEquals(code, 0);
    ok(/\d+ tests passed, 0 failed/.test(out), out);
  });
}
