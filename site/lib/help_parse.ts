/**
 * Reads commander's help text: the entries of its `Commands:` section.
 *
 * @module
 */

/** One entry of a `Commands:` section. */
export interface HelpCommand {
  /** The command's name (first word of the entry). */
  name: string;
  /** The usage after the name, e.g. `[options] [words...]`. */
  usage: string;
  /** The description, with wrapped lines joined by spaces. */
  description: string;
}

/**
 * Parses the `Commands:` section of commander help output. An entry starts with two
 * spaces and a name; deeper-indented lines continue the previous description. The
 * section ends at the first blank line. Returns `[]` when there is no such section.
 */
export function parseCommands(help: string): HelpCommand[] {
  const lines = help.replace(/\r\n/g, "\n").split("\n");
  const start = lines.findIndex((l) => /^Commands:\s*$/.test(l));
  if (start < 0) return [];
  const out: HelpCommand[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "") break;
    const entry = /^ {2}(\S+)(.*)$/.exec(line);
    if (entry) {
      // Name and usage are separated from the description by at least two spaces.
      const [head, ...rest] = (entry[1] + entry[2]).split(/\s{2,}/);
      const [name, ...usage] = head.split(" ");
      out.push({ name, usage: usage.join(" "), description: rest.join(" ").trim() });
    } else if (out.length > 0 && /^\s{3,}\S/.test(line)) {
      const last = out[out.length - 1];
      last.description = `${last.description} ${line.trim()}`.trim();
    }
  }
  return out;
}
