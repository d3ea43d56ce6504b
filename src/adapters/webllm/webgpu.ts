// Whether this page can run a model with WebLLM: WebGPU must exist and hand out an adapter
// (navigator.gpu exists on some machines whose GPU is blocklisted; requestAdapter then gives null).
// Asked before the model download starts, so nobody waits for gigabytes that cannot run.

/** The part of Navigator this needs (the DOM lib's Navigator has no `gpu` without @webgpu/types). */
export interface GpuNavigator {
  gpu?: { requestAdapter(options?: unknown): Promise<unknown> };
}

export const NO_WEBGPU_MESSAGE =
  'This browser has no WebGPU (needed to run a model inside the page); use Chrome/Edge 113+ with a GPU, or an OpenAI-compatible server such as Ollama';

export type WebGpuCheck = { ok: true } | { ok: false; reason: string };

function defaultNavigator(): GpuNavigator | undefined {
  return typeof navigator === 'undefined' ? undefined : (navigator as unknown as GpuNavigator);
}

export async function webgpuAvailable(nav: GpuNavigator | undefined = defaultNavigator()): Promise<WebGpuCheck> {
  if (!nav?.gpu || typeof nav.gpu.requestAdapter !== 'function') return { ok: false, reason: `${NO_WEBGPU_MESSAGE}.` };
  try {
    const adapter = await nav.gpu.requestAdapter();
    if (!adapter)
      return {
        ok: false,
        reason: `${NO_WEBGPU_MESSAGE}. (WebGPU is present but offered no GPU adapter: the GPU may be blocked or disabled.)`,
      };
    return { ok: true };
  } catch (e) {
    return {
      ok: false,
      reason: `${NO_WEBGPU_MESSAGE}. (Asking for a GPU adapter failed: ${e instanceof Error ? e.message : String(e)})`,
    };
  }
}
