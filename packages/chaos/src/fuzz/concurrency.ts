/** Runs `task(0)` … `task(count - 1)` with at most `limit` in flight; `onDone` sees each completion count. */
export async function runBounded(
  count: number,
  limit: number,
  task: (index: number) => Promise<void>,
  onDone: (done: number) => void = () => undefined,
): Promise<void> {
  let next = 0;
  let done = 0;
  // Each worker takes the next index until none is left: a slow task only holds its own slot.
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      await task(index);
      onDone(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}
