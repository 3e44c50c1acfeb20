/**
 * The bundled `.conf` texts, by provider name.
 *
 * @module
 */
/** Bundled `.conf` texts by provider name. */
export const bundledConfs: Readonly<Record<string, string>> = {
  openrouter: `protocol=openai
description=OpenRouter (OpenAI-compatible, multi-model router)
model=openrouter/auto
url=https://openrouter.ai/api/v1/chat/completions
auth_env=OPENROUTER_API_KEY
`,
  groq: `protocol=openai
description=Groq (OpenAI-compatible)
model=openai/gpt-oss-120b
url=https://api.groq.com/openai/v1/chat/completions
auth_env=GROQ_API_KEY
`,
  deepseek: `protocol=openai
description=DeepSeek (OpenAI-compatible)
model=deepseek-chat
url=https://api.deepseek.com/chat/completions
auth_env=DEEPSEEK_API_KEY
`,
  "llama.cpp": `protocol=openai
description=llama.cpp local server (OpenAI-compatible)
model=local
url=http://localhost:8080/v1/chat/completions
# any value: the server ignores it, setting it marks the provider ready
auth_env=LLAMA_API_KEY
`,
  ollama: `protocol=openai
description=Ollama local server (OpenAI-compatible endpoint)
model=llama3.2
url=http://localhost:11434/v1/chat/completions
# any value (e.g. OLLAMA_API_KEY=ollama): Ollama ignores it, setting it marks the provider ready
auth_env=OLLAMA_API_KEY
`,
};
