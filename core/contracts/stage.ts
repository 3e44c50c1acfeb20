/**
 * What the kernel consumes of a stage directly: the system prompt's sections
 * rendered every turn, and what the environment of a stage's child process
 * (hook, tool, provider, command) depends on.
 *
 * @module
 */

/** A section of the system prompt, refreshed every turn. */
export interface PromptSource {
  /** Identifies the section (unique among prompt sections). */
  id: string;
  /** Lower first. Built-in sections use 0-99, user sections 100+. */
  order?: number;
  /** Renders the section's text (called every turn). */
  render(): Promise<string> | string;
}

/** What the environment of a child process (hook, tool, provider, command) depends on. */
export interface ChildEnvRequest {
  /** HARNESS_STAGE. */
  stage: string;
  /** HARNESS_SESSION (a session directory), "" outside a loop. */
  session?: string;
  /** HARNESS_PROVIDER. */
  provider?: string;
  /** HARNESS_MODEL. */
  model?: string;
  /** HARNESS_CWD (default: the harness's working directory). */
  cwd?: string;
  /**
   * The child is a tool (the model's to call): a provider's key variable is left out
   * entirely, where hooks, providers and commands see its presence marker.
   */
  tool?: boolean;
}
