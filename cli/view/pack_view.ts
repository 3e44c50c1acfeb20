/**
 * Pack commands on a terminal (seed 000 §8): a command's view — a
 * `harness/choice` with numbered rows, nested choices, `harness/action`
 * leaves — rendered as text, a row chosen by number (or a `--pick` path such
 * as `2.1`), and the leaf performed: `plugin/method` calls a method of the
 * command's pack (the composer text goes to `:field`), `message` hands a
 * message to the agent.
 *
 * @module
 */
import type {
  ChoiceRow,
  ChoiceView,
  CommandView,
  FrontEnd,
  Json,
  SessionAction,
  SessionRef,
} from "../../core/mod.ts";
import { jsonForTerminal, sanitizeForTerminal as safe, type Styles } from "./render.ts";

/** The lines of a choice: its title, then `  N. label  detail` per row. */
export function renderChoice(view: ChoiceView, st: Styles): string {
  const lines = [st.bold(safe(view.title || "(untitled)"))];
  view.rows.forEach((r, i) => {
    const more = r.choice ? " …" : "";
    lines.push(
      `  ${st.cyan(String(i + 1).padStart(2))}. ${safe(r.label)}${more}${
        r.detail ? `  ${st.dim(safe(r.detail))}` : ""
      }`,
    );
  });
  if (view.rows.length === 0) lines.push(st.dim("  (nothing to choose)"));
  return lines.join("\n") + "\n";
}

/** A result as one line (control characters shown as pictures) or pretty JSON (escaped). */
export function renderResult(result: Json | undefined): string {
  if (typeof result === "string") return safe(result);
  return jsonForTerminal(result, 2);
}

/** How a command is driven. */
export interface PackCommandIO {
  out(s: string): void;
  st: Styles;
  /** Asks the person at the terminal (undefined: no terminal, nothing is asked). */
  ask?(question: string): Promise<string | undefined>;
  /** The session the command's states belong to (created on demand when given). */
  session(): SessionRef | undefined;
  /** Creates the session when a leaf needs one and there is none (the REPL does). */
  ensureSession?(): SessionRef;
}

/** What running a command led to. */
export interface PackCommandOutcome {
  view: CommandView;
  /** The leaf performed, if any. */
  performed?: SessionAction;
  result?: Json;
  /** A message for the agent (`message` leaves). */
  message?: string;
}

function leafOf(view: ChoiceView, path: number[]): ChoiceRow {
  let choice = view;
  for (let i = 0; i < path.length; i++) {
    const row = choice.rows[path[i] - 1];
    if (!row) throw new Error(`no row ${path.slice(0, i + 1).join(".")} in "${choice.title}"`);
    if (i === path.length - 1) return row;
    if (!row.choice) throw new Error(`row ${path.slice(0, i + 1).join(".")} has no choices`);
    choice = row.choice;
  }
  throw new Error("pick a row");
}

/**
 * Runs a pack command: evaluates its body, shows the view, lets the user (or `pick`) choose
 * a row, performs its leaf.
 */
export async function runPackCommand(
  h: FrontEnd,
  name: string,
  composer: string,
  io: PackCommandIO,
  pick?: number[],
): Promise<PackCommandOutcome> {
  const { command, view } = await h.packs.evaluateCommand(name, {
    session: io.session(),
    composer,
  });
  let action: SessionAction | undefined;
  if (view.type === "text") {
    io.out(safe(view.text.endsWith("\n") ? view.text : view.text + "\n"));
    return { view };
  }
  if (view.type === "action") action = view.action;
  else if (pick) {
    io.out(renderChoice(view, io.st));
    const row = leafOf(view, pick);
    if (!row.action) throw new Error(`row ${pick.join(".")} opens a choice: pick one of its rows`);
    action = row.action;
  } else {
    let choice: ChoiceView = view;
    for (;;) {
      io.out(renderChoice(choice, io.st));
      if (!io.ask || choice.rows.length === 0) return { view };
      const answer = (await io.ask(`choose 1–${choice.rows.length} (Enter closes): `))?.trim();
      if (!answer) return { view };
      const n = Number.parseInt(answer, 10);
      const row = choice.rows[n - 1];
      if (!row || String(n) !== answer) {
        io.out(io.st.yellow(`no row ${safe(answer)}\n`));
        continue;
      }
      if (row.choice) {
        choice = row.choice;
        continue;
      }
      action = row.action;
      break;
    }
  }
  if (!action) return { view };
  let text = composer;
  const field = typeof action.params.field === "string" ? action.params.field : undefined;
  if (field && !text.trim() && io.ask) text = (await io.ask(`${safe(field)}: `)) ?? "";
  const session = action.op === "plugin/method" &&
      (action.params.scope ?? "session") === "session"
    ? io.session() ?? io.ensureSession?.()
    : io.session();
  const done = await h.packs.perform(command.pack, action, { session, composer: text });
  if (done.message !== undefined) return { view, performed: action, message: done.message };
  io.out(renderResult(done.result) + "\n");
  return { view, performed: action, result: done.result };
}
