/**
 * The audit contract (seed 002): the events audit sinks receive, and the sink.
 *
 * @module
 */

/** A runtime audit event (seed 002): never carries input/output bodies or credentials. */
export type AuditEvent =
  | {
    type: "permission";
    time: string;
    /**
     * "decision": what the floor decided (allow / ask / deny); "response": how an `ask`
     * was answered (allow / deny), right after its decision record.
     */
    record: "decision" | "response";
    tool: string;
    rule: string;
    principal: string;
    callId: string;
    decision: "allow" | "ask" | "deny";
  }
  | {
    type: "tool_execution";
    time: string;
    tool: string;
    owner: string;
    callId: string;
    durationMs: number;
    outcome: "ok" | "error" | "refused";
  };

/** An audit sink: best-effort observer (or fail closed, when registered so). */
export type AuditSink = (event: AuditEvent) => void | Promise<void>;
