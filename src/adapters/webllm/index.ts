// The WebLLM adapter: in-browser models on WebGPU (ui/services.ts is the only caller).
export { webgpuAvailable, NO_WEBGPU_MESSAGE, type GpuNavigator, type WebGpuCheck } from './webgpu';
export { WEBLLM_MODELS, DEFAULT_WEBLLM_MODEL, type WebLlmModelInfo } from '../../core/llm/webllm-models';
export {
  createWebLlmModel,
  toWebLlmMessages,
  DEFAULT_CONTEXT_WINDOW,
  type WebLlmOptions,
  type WebLlmProgress,
  type WebLlmEngine,
  type LoadWebLlmEngine,
} from './chat-model';
