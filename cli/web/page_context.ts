/**
 * `/context`: what the main agent sees and may do — the model, the system
 * prompt's sections in order with their owners, the tools with their owners
 * and schemas, the hooks of each stage, the skills, the effect floor, the
 * providers and the sources.
 *
 * @module
 */
import { type Html, markup } from "./html.ts";
import type { ContextModel } from "./context_model.ts";
import { jsonText } from "./transcript.ts";

const SECTIONS: [string, string][] = [
  ["model", "Model"],
  ["prompt", "System prompt"],
  ["tools", "Tools"],
  ["hooks", "Hooks"],
  ["skills", "Skills"],
  ["floor", "Effect floor"],
  ["providers", "Providers"],
  ["sources", "Sources"],
];

function badge(ok: boolean, yes: string, no: string): Html {
  return markup`<span class="badge ${ok ? "good" : "bad"}">${ok ? yes : no}</span>`;
}

function verdictBadge(v: string): Html {
  const cls = v === "allow" ? "good" : v === "deny" ? "bad" : "wait";
  return markup`<span class="badge ${cls}">${v}</span>`;
}

function toc(): Html {
  const links = SECTIONS.map(([id, label], i) =>
    markup`${i ? " · " : ""}<a href="#${id}">${label}</a>`
  );
  return markup`<nav aria-label="Sections" class="muted">${links}</nav>`;
}

function model(m: ContextModel): Html {
  if ("error" in m.selected) {
    return markup`<p class="notice error">No model: ${m.selected.error}</p>`;
  }
  return markup`<p>Provider <strong class="mono">${m.selected.provider}</strong>, model <strong class="mono">${m.selected.model}</strong>.</p>`;
}

function prompt(m: ContextModel): Html {
  if (m.prompt.length === 0) return markup`<p class="muted">The system prompt is empty.</p>`;
  const items = m.prompt.map((p) => {
    const about = `— ${p.owner} · order ${p.order} · ${
      p.text.length.toLocaleString("en")
    } characters`;
    return markup`<li class="prompt-section"><details><summary><strong>${p.id}</strong> <span class="muted">${about}</span></summary><pre>${p.text}</pre></details></li>`;
  });
  return markup`<p class="muted">Sections in the order a request assembles them.</p><ol class="prompt">${items}</ol>`;
}

function tools(m: ContextModel): Html {
  const rows = m.tools.map((t) =>
    markup`<tr class="tool"><td class="mono"><strong>${t.name}</strong></td><td class="mono">${t.owner}</td><td>${
      t.description.split("\n")[0]
    }<details><summary>Schema</summary><pre class="json">${
      jsonText(t.schema.input_schema)
    }</pre></details></td></tr>`
  );
  const rejected = m.rejectedTools.length
    ? markup`<h3>Rejected executables</h3><ul>${
      m.rejectedTools.map((p) => markup`<li class="mono">${p.path}: ${p.reason}</li>`)
    }</ul>`
    : "";
  return markup`<div class="table-wrap"><table class="data"><thead><tr><th scope="col">Tool</th><th scope="col">Owner</th><th scope="col">Description and schema</th></tr></thead><tbody>${rows}</tbody></table></div>${rejected}`;
}

function hooks(m: ContextModel): Html {
  const cards = m.hooks.map((s) => {
    const items = s.hooks.map((hk) => {
      const cls = hk.replaced ? markup` class="replaced"` : "";
      const note = hk.replaced ? " (replaced by the executable of the same name)" : "";
      return markup`<li${cls}><span class="mono">${hk.name}</span> <span class="muted">${hk.owner}${note}</span></li>`;
    });
    return markup`<div class="card"><h3 class="mono">${s.stage}</h3><ol>${items}</ol></div>`;
  });
  return markup`<p class="muted">In the order they run; an executable replaces the built-in of the same name.</p><div class="grid2 stage-hooks">${cards}</div>`;
}

function skills(m: ContextModel): Html {
  const list = m.skills.length
    ? markup`<div class="table-wrap"><table class="data"><thead><tr><th scope="col">Skill</th><th scope="col">Description</th><th scope="col">Source</th></tr></thead><tbody>${
      m.skills.map((s) =>
        markup`<tr><td class="mono"><strong>${s.name}</strong></td><td>${s.description}</td><td class="mono">${
          s.path || s.source
        }</td></tr>`
      )
    }</tbody></table></div>`
    : markup`<p class="muted">No skills.</p>`;
  const problems = m.skillProblems.length
    ? markup`<ul>${
      m.skillProblems.map((p) => markup`<li class="mono">${p.path}: ${p.reason}</li>`)
    }</ul>`
    : "";
  return markup`${list}${problems}`;
}

function floor(m: ContextModel): Html {
  const f = m.floor;
  if (!f) return markup`<p class="muted">No effect floor (library default: allow all).</p>`;
  const children = f.narrower
    ? "OS sandbox required (the policy is narrower than the process)"
    : "run directly";
  const grants = f.grants.map((g) =>
    markup`<tr><td>${g.effect}</td><td class="mono">${g.grant}</td><td class="mono">${g.source}</td></tr>`
  );
  const denials = f.deny.map((d) =>
    markup`<tr><td>deny ${d.effect}</td><td class="mono">${d.paths}</td><td></td></tr>`
  );
  const rules = f.rules.length
    ? markup`<h3>Rules</h3><table class="data"><thead><tr><th scope="col">Verdict</th><th scope="col">Rule</th><th scope="col">From</th></tr></thead><tbody>${
      f.rules.map((r) =>
        markup`<tr><td>${
          verdictBadge(r.verdict)
        }</td><td class="mono">${r.text}</td><td class="mono">${r.source}</td></tr>`
      )
    }</tbody></table>`
    : "";
  return markup`<p>Preset <strong>${f.preset}</strong>. Child processes: ${children}; sandbox: ${f.sandbox}.</p><table class="data floor-table"><thead><tr><th scope="col">Effect</th><th scope="col">Granted</th><th scope="col">From</th></tr></thead><tbody>${grants}${denials}</tbody></table><p class="muted">Layers: ${
    f.layers.join(" → ")
  }</p>${rules}`;
}

function providers(m: ContextModel): Html {
  const selected = "provider" in m.selected ? m.selected.provider : undefined;
  const rows = m.providers.map((p) => {
    const sel = selected === p.name ? markup` <span class="badge good">selected</span>` : "";
    return markup`<tr><td class="mono"><strong>${p.name}</strong>${sel}<div class="muted">${p.description}</div></td><td class="mono">${p.protocol}</td><td>${
      badge(p.ready, "ready", "not ready")
    } <span class="muted">${p.reason}</span></td><td class="mono">${p.origin}</td></tr>`;
  });
  return markup`<div class="table-wrap"><table class="data providers"><thead><tr><th scope="col">Provider</th><th scope="col">Protocol</th><th scope="col">Ready</th><th scope="col">From</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function sources(m: ContextModel): Html {
  const list = m.sources.map((s) =>
    markup`<li>${s.dir} <span class="muted">(${s.kind})</span></li>`
  );
  const untrusted = m.untrusted.length
    ? markup`<p class="notice">Left out until trusted (<code>hs trust</code>): ${
      m.untrusted.join(", ")
    }</p>`
    : "";
  return markup`<p class="muted">Lowest priority first.</p><ol class="mono">${list}</ol>${untrusted}`;
}

/** The `/context` page's main content. */
export function contextBody(m: ContextModel): Html {
  return markup`<h1>Context</h1>${toc()}<h2 id="model">Model</h2>${
    model(m)
  }<h2 id="prompt">System prompt</h2>${
    prompt(m)
  }<h2 id="tools">Tools <span class="muted">(${m.tools.length})</span></h2>${
    tools(m)
  }<h2 id="hooks">Hooks per stage</h2>${
    hooks(m)
  }<h2 id="skills">Skills <span class="muted">(${m.skills.length})</span></h2>${
    skills(m)
  }<h2 id="floor">Effect floor</h2>${floor(m)}<h2 id="providers">Providers</h2>${
    providers(m)
  }<h2 id="sources">Sources</h2>${sources(m)}`;
}
