// How a question waits for indexes under construction (issue 26), for every engine: the build if it
// is (or becomes) ready within `waitMs`; without a limit, the build itself. A build is waited for
// once: after one wait ran out (a question's links), the next calls (its grounding, the next
// question) answer at once until the build is done.

export interface WaitMemory<T> {
  /** The build a wait already ran out on. */
  waitedFor?: Promise<T> | null;
}

export async function readyWithin<T>(
  job: Promise<T>,
  waitMs: number | undefined,
  memory: WaitMemory<T>,
): Promise<T | null> {
  if (waitMs === undefined) return job;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), memory.waitedFor === job ? 0 : waitMs);
  });
  try {
    const ready = await Promise.race([job, late]);
    if (!ready) memory.waitedFor = job;
    return ready;
  } finally {
    clearTimeout(timer);
  }
}
