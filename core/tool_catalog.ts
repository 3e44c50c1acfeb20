/**
 * Every tool the model can call: those registered by runtime plugins, then
 * the executables of the discovery snapshot (a more local executable of the
 * same name wins, as everywhere in `.harness/`). Schema problems are logged
 * and listed by `hs tools` / `hs doctor`.
 *
 * @module
 */
import type { ResolvedTool, ToolDefinition, ToolSchema } from "./base/mod.ts";
import type { Snapshot } from "./discovery/mod.ts";
import type { Entry } from "./plugins/mod.ts";
import type { ExecutableTools, ToolProblem } from "./tools/mod.ts";

/** Schemas of a snapshot's executable tools and the rejected ones. */
export interface ExecutableSchemas {
  /** Accepted tools by name, with their schema and path. */
  tools: Map<string, { schema: ToolSchema; path: string }>;
  /** Tool files whose schema was rejected. */
  problems: ToolProblem[];
}

/** Options of {@link ToolCatalog}. */
export interface ToolCatalogOptions {
  registered(): Entry<ToolDefinition>[];
  executables: ExecutableTools;
  /** One executable `--exec`'s time limit (HARNESS_EXEC_TIMEOUT). */
  execTimeoutMs: number;
  log(line: string): void;
}

/** The tools of one harness. */
export class ToolCatalog {
  #o: ToolCatalogOptions;

  /** Creates the catalog over registered and executable tools. */
  constructor(opts: ToolCatalogOptions) {
    this.#o = opts;
  }

  /** Executable tool schemas of a snapshot, with the problems found. */
  executableSchemas(snap: Snapshot): Promise<ExecutableSchemas> {
    return this.#o.executables.schemas(
      [...snap.tools.values()].map((f) => ({ name: f.name, path: f.path })),
    );
  }

  /** Every callable tool of a snapshot, by name. */
  async resolve(snap: Snapshot): Promise<Map<string, ResolvedTool>> {
    const tools = new Map<string, ResolvedTool>();
    for (const e of this.#o.registered()) {
      const d = e.value;
      tools.set(d.name, {
        def: d,
        owner: e.owner,
        schema: { name: d.name, description: d.description, input_schema: d.inputSchema },
      });
    }
    const { tools: execs, problems } = await this.executableSchemas(snap);
    for (const p of problems) this.#o.log(`[tools] skipped ${p.path}: ${p.reason}`);
    for (const [name, t] of execs) {
      tools.set(name, {
        def: this.#o.executables.definition(t.path, t.schema, this.#o.execTimeoutMs),
        owner: { kind: "executable", path: t.path },
        schema: t.schema,
      });
    }
    return tools;
  }
}
