/**
 * Fault injection, OpenAI chat completions: hostile servers (cuts, malformed
 * events, keep-alive floods, huge bodies, HTML and wrong content types,
 * 429/5xx storms) through `deno task hs`.
 */
import { providerFaultTests } from "./_provider_cases.ts";

providerFaultTests("openai");
