/**
 * scripts/build.ts `lazyNodeRequire`: the bundle's `require` of Node's built-ins is made on its
 * first call, so no chunk imports `node:module` (Deno's Node layer) when it loads.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { lazyNodeRequire } from "../../scripts/build.ts";

/** A chunk of esbuild's helpers as `deno bundle --code-splitting` writes it (Deno 2.9). */
const HELPERS = `var i=Object.create;` +
  `import{createRequire as __deno_internal_createRequire} from "node:module";` +
  `var n=__deno_internal_createRequire(import.meta.url);` +
  `var o=(a,b)=>()=>(a&&(b=a(a=0)),b);export{n as a,o as b};`;

async function staticImports(file: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--no-config", file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string; dependencies?: { specifier: string }[] }[];
  };
  return info.modules.flatMap((m) => (m.dependencies ?? []).map((d) => d.specifier));
}

Deno.test("bundle: the helpers' require no longer imports node:module, and still requires built-ins", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hs-bundle-require-" });
  try {
    const before = join(dir, "before.js");
    const after = join(dir, "after.js");
    await Deno.writeTextFile(before, HELPERS);
    await Deno.writeTextFile(after, lazyNodeRequire(HELPERS));
    // the test can fail: deno bundle's own form does import it
    assert.deepEqual(await staticImports(before), ["node:module"]);
    assert.deepEqual(await staticImports(after), []);
    const { a: require } = await import(`file://${after}`) as {
      a: ((id: string) => { join(...p: string[]): string }) & { resolve(id: string): string };
    };
    assert.equal(require("node:path").join("a", "b"), "a/b");
    assert.equal(require.resolve("node:path"), "node:path");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bundle: a chunk without deno bundle's require is left as it is", () => {
  const chunk = `var o=(a,b)=>()=>(a&&(b=a(a=0)),b);export{o as b};`;
  assert.equal(lazyNodeRequire(chunk), chunk);
});

Deno.test("bundle: a form of deno bundle's require this does not know stops the build", () => {
  const changed = HELPERS.replace("var n=", "const n = ");
  assert.throws(() => lazyNodeRequire(changed), /does not know/);
});
