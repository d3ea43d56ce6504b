// WebLLM failures as LlmError. WebLLM throws its own Error subclasses (told apart by `name`) and,
// while downloading, plain fetch errors; the page shows the code and message like any provider's.

import { NO_WEBGPU_MESSAGE } from './webgpu';
import { LlmError } from '../../core/llm/types';
import { isContextLengthText } from '../../core/llm/errors';

const MODEL_MISSING = new Set([
  'ModelNotFoundError',
  'SpecifiedModelNotFoundError',
  'UnsupportedModelIdError',
  'UnclearModelToUseError',
]);
const NO_GPU = new Set(['WebGPUNotAvailableError', 'WebGPUNotFoundError']);

export function webLlmError(e: unknown, model: string): LlmError {
  if (e instanceof LlmError) return e;
  const name = e instanceof Error ? e.name : '';
  const message = e instanceof Error ? e.message : String(e);
  if (name === 'AbortError') return new LlmError('llm_aborted', 'The model call was stopped.', { cause: e });
  if (NO_GPU.has(name)) return new LlmError('llm_server', `${NO_WEBGPU_MESSAGE}.`, { cause: e });
  if (MODEL_MISSING.has(name)) {
    return new LlmError(
      'llm_model_not_found',
      `WebLLM has no model "${model}". Pick one of the suggested in-browser models.`,
      { cause: e },
    );
  }
  if (name === 'ContextWindowSizeExceededError' || isContextLengthText(message)) {
    return new LlmError(
      'llm_context_length',
      `The conversation is too long for the in-browser model "${model}". Start a new question, or use a model with a larger context (for example through Ollama).`,
      { cause: e },
    );
  }
  if (name === 'DeviceLostError' || name === 'ShaderF16SupportError') {
    return new LlmError('llm_server', `The GPU could not run "${model}": ${message} Try a smaller model.`, {
      cause: e,
    });
  }
  // Downloads go through fetch: a TypeError ("Failed to fetch", "NetworkError …") means the weights could not be reached.
  if (name === 'TypeError' && /fetch|network/i.test(message)) {
    return new LlmError(
      'llm_network',
      `Could not download "${model}" (${message}). Check the connection and try again; files already downloaded stay cached.`,
      { cause: e, retryable: true },
    );
  }
  return new LlmError('llm_server', `The in-browser model "${model}" failed: ${message}`, { cause: e });
}
