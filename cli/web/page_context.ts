/**
 * `/context`: what the main agent sees and may do — the model, the system
 * prompt's sections in order with their owners, the tools with their owners
 * and schemas, the hooks of each stage, the skills, the effect floor, the
 * providers and the sources.
 *
 * @module
 */
import { type Html, html } from "./html.ts";
import type { ContextModel } from "./context_model.ts";
import { jsonText } from "./transcript.ts";

function badge(ok: boolean, yes: string, no: string): Html {
  return html`<span class="badge ${ok ? "good" : "bad"}">${ok ? yes : no}</span>`;
}

function toc(): Html {
  const parts = [
    ["model", "Model"],
    ["prompt", "System prompt"],
    ["tools", "Tools"],
    ["hooks", "Hooks"],
    ["skills", "Skills"],
    ["floor", "Effect floor"],
    ["providers", "Providers"],
    ["sources", "Sources"],
  ];
  return html`<nav aria-label="Sections" class="muted">${
    parts.map(([id, label], i) => html`${i ? " · " : ""}<a href="#${id}">${label}</a>`)
  }</nav>`;
}

/** The `/context` page's main content. */
export function contextBody(m: ContextModel): Html {
  const sel = "error" in m.selected
    ? html`<p class="notice error">No model: ${m.selected.error}</p>`
    : html`<p>Provider <strong class="mono">${m.selected.provider}</strong>, model <strong class="mono">${m.selected.model}</strong>.</p>`;
  const prompt = m.prompt.length
    ? html`<ol class="prompt">${
      m.prompt.map((p) =>
        html`
          <li class="prompt-section">
            <details>
              <summary><strong>${p.id}</strong> <span class="muted">— ${p.owner} · order ${p
                .order} · ${p.text.length.toLocaleString("en")} characters</span></summary>
              <pre>${p.text}</pre>
            </details>
          </li>
        `
      )
    }</ol>`
    : html`<p class="muted">The system prompt is empty.</p>`;
  const tools = html`
    <div class="table-wrap">
      <table class="data">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Owner</th>
            <th scope="col">Description and schema</th>
          </tr>
        </thead>
        <tbody>${m.tools.map((t) =>
          html`
            <tr class="tool">
              <td class="mono"><strong>${t.name}</strong></td>
              <td class="mono">${t.owner}</td>
              <td>${t.description.split(
                "\n",
              )[0]}<details><summary>Schema</summary><pre class="json">${jsonText(
                t.schema.input_schema,
              )}</pre></details></td>
            </tr>
          `
        )}</tbody>
      </table>
    </div>${m.rejectedTools.length
      ? html`
        <h3>Rejected executables</h3>
        <ul>${m.rejectedTools.map((p) => html`<li class="mono">${p.path}: ${p.reason}</li>`)}</ul>
      `
      : ""}
  `;
  const hooks = html`<div class="grid2 stage-hooks">${
    m.hooks.map((s) =>
      html`
        <div class="card">
          <h3 class="mono">${s.stage}</h3>
          <ol>${s.hooks.map((hk) =>
            html`<li${
              hk.replaced
                ? html`
                  class="replaced"
                `
                : ""
            }><span class="mono">${hk.name}</span> <span class="muted">${hk.owner}${
              hk.replaced ? " (replaced by the executable of the same name)" : ""
            }</span></li>`
          )}</ol>
        </div>
      `
    )
  }</div>`;
  const skills = m.skills.length
    ? html`
      <div class="table-wrap">
        <table class="data">
          <thead>
            <tr>
              <th scope="col">Skill</th>
              <th scope="col">Description</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>${m.skills.map((s) =>
            html`
              <tr>
                <td class="mono"><strong>${s.name}</strong></td>
                <td>${s.description}</td>
                <td class="mono">${s.path || s.source}</td>
              </tr>
            `
          )}</tbody>
        </table>
      </div>
    `
    : html`<p class="muted">No skills.</p>`;
  const skillProblems = m.skillProblems.length
    ? html`<ul>${
      m.skillProblems.map((p) => html`<li class="mono">${p.path}: ${p.reason}</li>`)
    }</ul>`
    : "";
  const f = m.floor;
  const floor = f
    ? html`
      <p>Preset <strong>${f.preset}</strong>. Child processes: ${f.narrower
        ? "OS sandbox required (the policy is narrower than the process)"
        : "run directly"}; sandbox: ${f.sandbox}.</p><table
        class="data floor-table">
        <thead>
          <tr>
            <th scope="col">Effect</th>
            <th scope="col">Granted</th>
            <th scope="col">From</th>
          </tr>
        </thead>
        <tbody>${f.grants.map((g) =>
          html`
            <tr>
              <td>${g.effect}</td>
              <td class="mono">${g.grant}</td>
              <td class="mono">${g.source}</td>
            </tr>
          `
        )}${f.deny.map((d) =>
          html`
            <tr>
              <td>deny ${d.effect}</td>
              <td class="mono">${d.paths}</td>
              <td></td>
            </tr>
          `
        )}</tbody>
      </table><p class="muted">Layers: ${f.layers.join(" → ")}</p>${f.rules.length
        ? html`
          <h3>Rules</h3>
          <table class="data">
            <thead>
              <tr>
                <th scope="col">Verdict</th>
                <th scope="col">Rule</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>${f.rules.map((r) =>
              html`
                <tr>
                  <td><span class="badge ${r.verdict === "allow"
                    ? "good"
                    : r.verdict === "deny"
                    ? "bad"
                    : "wait"}">${r.verdict}</span></td>
                  <td class="mono">${r.text}</td>
                  <td class="mono">${r.source}</td>
                </tr>
              `
            )}</tbody>
          </table>
        `
        : ""}
    `
    : html`<p class="muted">No effect floor (library default: allow all).</p>`;
  const providers = html`
    <div class="table-wrap">
      <table class="data">
        <thead>
          <tr>
            <th scope="col">Provider</th>
            <th scope="col">Protocol</th>
            <th scope="col">Ready</th>
            <th scope="col">From</th>
          </tr>
        </thead>
        <tbody>${m.providers.map((p) =>
          html`
            <tr>
              <td class="mono"><strong>${p
                .name}</strong>${"provider" in m.selected && m.selected.provider === p.name
                ? html`
                  <span class="badge good">selected</span>
                `
                : ""}<div class="muted">${p.description}</div></td>
              <td class="mono">${p.protocol}</td>
              <td>${badge(p.ready, "ready", "not ready")} <span class="muted">${p
                .reason}</span></td>
              <td class="mono">${p.origin}</td>
            </tr>
          `
        )}</tbody>
      </table>
    </div>
  `;
  const sources = html`<ol class="mono">${
    m.sources.map((s) => html`<li>${s.dir} <span class="muted">(${s.kind})</span></li>`)
  }</ol>${
    m.untrusted.length
      ? html`<p class="notice">Left out until trusted (<code>hs trust</code>): ${
        m.untrusted.join(", ")
      }</p>`
      : ""
  }`;
  return html`
    <h1>Context</h1>${toc()}<h2 id="model">Model</h2>${sel}<h2 id="prompt">System prompt</h2><p
      class="muted">Sections in the order a request assembles them.</p>${prompt}<h2
      id="tools">Tools <span class="muted">(${m.tools.length})</span></h2>${tools}<h2
      id="hooks">Hooks per stage</h2><p
      class="muted">In the order they run; an executable replaces the built-in of the same name.</p>${hooks}<h2
      id="skills">Skills <span class="muted">(${m.skills
        .length})</span></h2>${skills}${skillProblems}<h2
      id="floor">Effect floor</h2>${floor}<h2 id="providers">Providers</h2>${providers}<h2
      id="sources">Sources</h2><p class="muted">Lowest priority first.</p>${sources}
  `;
}
