/**
 * Seed 002: "Un chemin de module absolu ou un package installé résolvable depuis ce répertoire
 * est accepté ; rien n'est téléchargé" (issue 27 point 14). A plugins.json `module` may name a
 * package installed under `$HARNESS_HOME` — its `node_modules` or its import map — not only an
 * absolute path; anything that would be fetched is refused, and a plugin's own `http://`
 * import is refused too, also under `deno task hs:all` (the loopback server that would serve it
 * is never asked).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeWorkspace, REPO, runHs, writeFile } from "../support/workspace.ts";

const plugin = (id: string, tool: string, extra = "") =>
  `${extra}
export default {
  id: "${id}", version: "1.0.0", apiVersion: 1,
  setup(ctx) {
    ctx.tools.register({
      name: "${tool}", description: "from an installed package", inputSchema: { type: "object" },
      execute: () => Promise.resolve({ content: [{ type: "text", text: "ok" }] }),
    });
  },
};
`;

Deno.test("a plugins.json module may name a package installed under HARNESS_HOME (node_modules, import map)", async () => {
  const w = await makeWorkspace();
  try {
    const pkg = join(w.home, "node_modules", "@acme", "hs-hello");
    await writeFile(
      join(pkg, "package.json"),
      JSON.stringify({ name: "@acme/hs-hello", exports: { ".": { import: "./dist/mod.js" } } }),
    );
    await writeFile(join(pkg, "dist", "mod.js"), `export { default } from "../lib/impl.js";\n`);
    await writeFile(join(pkg, "lib", "impl.js"), plugin("hello-pkg", "hello_pkg"));
    await writeFile(join(w.home, "plugins", "tickets.ts"), plugin("tickets", "tickets_open"));
    await writeFile(
      join(w.home, "deno.json"),
      JSON.stringify({ imports: { "tickets-plugin": "./plugins/tickets.ts" } }),
    );
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({
        runtimePlugins: [
          { id: "hello-pkg", module: "@acme/hs-hello" },
          { id: "tickets", module: "tickets-plugin" },
          { id: "remote", module: "https://example.com/plugin.ts", required: false },
          { id: "missing", module: "not-installed", required: false },
        ],
      }),
    );
    const p = await runHs(["plugins"], { cwd: w.ws, env: w.env });
    assert.equal(p.code, 0, p.stderr);
    const line = (id: string) => p.stdout.split("\n").find((l) => l.startsWith(id + " ")) ?? "";
    assert.match(line("hello-pkg"), /active/);
    assert.match(line("tickets"), /active/);
    assert.match(line("remote"), /failed .*would be downloaded; nothing is downloaded/);
    assert.match(line("missing"), /failed .*package "not-installed" is not installed under/);
    const t = await runHs(["tools"], { cwd: w.ws, env: w.env });
    assert.match(t.stdout, /hello_pkg/);
    assert.match(t.stdout, /tickets_open/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("a plugin's own http:// import is refused, also under deno task hs:all: nothing is fetched", async () => {
  const w = await makeWorkspace();
  let asked = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    asked++;
    return new Response(`export const x = 1;\n`, {
      headers: { "content-type": "application/typescript" },
    });
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/x.ts`;
    const mod = join(w.root, "fetching.ts");
    await writeFile(mod, plugin("fetching", "fetching_tool", `import { x } from "${url}"; x;`));
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "fetching", module: mod, required: false }] }),
    );
    for (const task of ["hs", "hs:all"]) {
      const r = await new Deno.Command(Deno.execPath(), {
        args: ["task", "-q", "--config", join(REPO, "deno.json"), task, "plugins"],
        cwd: w.ws,
        env: w.env,
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const out = new TextDecoder().decode(r.stdout);
      assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
      assert.match(out, /fetching .*failed/, `${task}: ${out}`);
    }
    assert.equal(asked, 0, "the module server was asked");
  } finally {
    await server.shutdown();
    await w.cleanup();
  }
});
