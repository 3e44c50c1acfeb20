/**
 * `deno task demo:plugins`: the four-plugin demo, offline — a scripted model, a
 * local tool, an audit observer and a simulated connector, loaded through
 * `Harness.create` in a temporary home. No credentials, no network.
 *
 * @module
 */
import { Harness } from "../../plugins/mod.ts"; // the kernel with its built-in plugins
import type { AuditEvent, RunResult } from "../../mod.ts";
import {
  auditObserverPlugin,
  localToolPlugin,
  scriptedModelPlugin,
  simulatedConnectorPlugin,
} from "./fixtures.ts";

/** What the demo produced. */
export interface DemoOutcome {
  result: RunResult;
  status: string[];
  audit: AuditEvent[];
  lifecycle: string[];
}

/** Runs the demo; `print` receives its lines. */
export async function runPluginDemo(print: (line: string) => void): Promise<DemoOutcome> {
  const home = await Deno.makeTempDir({ prefix: "hs-plugins-demo-" });
  const seen = { audit: [] as AuditEvent[], lifecycle: [] as string[] };
  try {
    const harness = await Harness.create({
      cwd: home,
      env: { HOME: home, HARNESS_HOME: home, PATH: Deno.env.get("PATH") ?? "" },
      ephemeral: true,
      config: { runtimePlugins: [] }, // this application decides: no user plugins.json
      log: () => {},
      runtimePlugins: [
        { plugin: scriptedModelPlugin() },
        { plugin: localToolPlugin },
        { plugin: auditObserverPlugin(seen) },
        { plugin: simulatedConnectorPlugin },
      ],
    });
    try {
      const status = harness.admin.runtimePluginStatus().map((s) =>
        `${s.id} ${s.version} ${s.state}`
      );
      print("plugins: " + status.join(", "));
      const result = await harness.run({
        message: "How many words in 'plugins feed the same registries', and what about HS-42?",
        provider: "demo",
        onEvent: (e) => {
          if (e.type === "text") print(`model: ${e.text}`);
          if (e.type === "tool_done") print(`  ${e.name} → ${e.result}`);
        },
      });
      await harness.audit.flush();
      print("audit: " + seen.audit.map((e) => `${e.type}(${e.tool})`).join(", "));
      print("lifecycle: " + seen.lifecycle.join("; "));
      return { result, status, ...seen };
    } finally {
      await harness.close();
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) {
  const r = await runPluginDemo((l) => console.log(l));
  console.log(r.result.error ? `error: ${r.result.message}` : `answer: ${r.result.output}`);
  if (r.result.error) Deno.exit(1);
}
