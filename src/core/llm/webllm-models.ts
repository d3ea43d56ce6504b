// Suggested WebLLM models (ids from @mlc-ai/web-llm's prebuilt list). Small instruction-tuned
// models that fit an ordinary laptop GPU; the browser caches the download after the first load.
// The page may offer any other prebuilt id too; these are only the ones we suggest first.

export interface WebLlmModelInfo {
  id: string;
  label: string;
  /** GPU memory the model needs, from the prebuilt list (MB). */
  vramMb: number;
}

export const WEBLLM_MODELS: readonly WebLlmModelInfo[] = [
  { id: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', label: 'Qwen2.5 1.5B Instruct (smallest, fastest)', vramMb: 1630 },
  { id: 'Qwen2.5-3B-Instruct-q4f16_1-MLC', label: 'Qwen2.5 3B Instruct', vramMb: 2505 },
  { id: 'Llama-3.2-3B-Instruct-q4f16_1-MLC', label: 'Llama 3.2 3B Instruct', vramMb: 2264 },
  { id: 'Phi-3.5-mini-instruct-q4f16_1-MLC', label: 'Phi-3.5 mini Instruct (3.8B, largest)', vramMb: 3672 },
];

export const DEFAULT_WEBLLM_MODEL = WEBLLM_MODELS[0].id;
