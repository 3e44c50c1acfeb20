/**
 * Bug 9: another Deno project embeds the harness as a package — `links` to this
 * repository and the package name in its own import map — without copying this
 * repository's import map: the bare specifiers inside (zod, yaml, …) resolve from
 * this package's deno.json.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO } from "../../support/workspace.ts";

Deno.test("bug 9: mod.ts is importable as a package from a temporary project", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-embed-" });
  try {
    const name = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json"))).name as string;
    await Deno.writeTextFile(
      join(root, "deno.json"),
      JSON.stringify({ links: [REPO], imports: { [name]: `jsr:${name}@*` } }),
    );
    await Deno.writeTextFile(
      join(root, "app.ts"),
      `import { Harness, type RuntimePlugin, textResult } from "${name}";
const hello: RuntimePlugin = {
  id: "hello-tools", version: "1.0.0", apiVersion: 1,
  setup(ctx) {
    ctx.tools.register({ name: "hello_greet", description: "greet", inputSchema: { type: "object" },
      execute: () => Promise.resolve(textResult("Hello")) });
  },
};
const h = await Harness.create({ cwd: Deno.cwd(), ephemeral: true, config: { runtimePlugins: [] },
  runtimePlugins: [{ plugin: hello as RuntimePlugin<unknown> }] });
try {
  console.log(h.runtimePluginStatus().map((s) => s.id + "=" + s.state).join(" "));
} finally {
  await h.close();
}
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", "--check", "app.ts"],
      cwd: root,
      env: {
        HOME: root,
        HARNESS_HOME: join(root, "home"),
        HARNESS_LOG: join(root, "log"),
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        DENO_DIR: Deno.env.get("DENO_DIR") ??
          join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
        // how this machine reaches the npm registry (a proxy, its certificate authority)
        ...networkEnv(),
      },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    const text = dec.decode(out.stdout) + dec.decode(out.stderr);
    assert.equal(out.code, 0, text);
    assert.match(text, /hello-tools=active/);
    assert.match(text, /core-tools=active/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** The variables that say how to reach the registry (proxies, certificate authorities), as set. */
function networkEnv(): Record<string, string> {
  const names = [
    "DENO_CERT",
    "NODE_EXTRA_CA_CERTS",
    "DENO_TLS_CA_STORE",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "NO_PROXY",
    "https_proxy",
    "http_proxy",
    "no_proxy",
    "NPM_CONFIG_REGISTRY",
  ];
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = Deno.env.get(n);
    if (v !== undefined) out[n] = v;
  }
  return out;
}
