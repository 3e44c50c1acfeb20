/**
 * Every Scheme example of docs/packs.md loads as a behavior program (examples that stop
 * running fail here).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO } from "../support/workspace.ts";
import { loadProgram } from "../../stdlib-harness/mod.ts";

const doc = await Deno.readTextFile(join(REPO, "docs/packs.md"));
const examples = [...doc.matchAll(/```scheme\n([\s\S]*?)```/g)].map((m) => m[1]);

Deno.test("docs/packs.md has Scheme examples", () => {
  assert.ok(examples.length >= 6, `found ${examples.length}`);
});

for (const [i, source] of examples.entries()) {
  Deno.test(`docs/packs.md example ${i + 1} loads`, async () => {
    const root = await Deno.makeTempDir({ prefix: "hs-doc-ex-" });
    try {
      await Deno.writeTextFile(join(root, "ex.scm"), source);
      await Deno.mkdir(join(root, "lib"));
      await Deno.writeTextFile(join(root, "lib/util.scm"), "");
      const p = await loadProgram({
        file: join(root, "ex.scm"),
        root,
        configuration: { secretPrefixes: ["sk-"] },
      });
      const r = p.registrations;
      const count = r.guards.length + r.hooks.length + r.tools.length + r.validators.length +
        r.methods.length + r.subscribers.length + (r.reducer ? 1 : 0);
      assert.ok(count > 0, "the example registers something");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}
