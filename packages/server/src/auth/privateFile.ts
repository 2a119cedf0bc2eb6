import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * The content of a private file (a key, a secret), made by `make` and written 0600 (its folder 0700) when
 * missing. Replicas sharing the folder race safely: the first write wins and the others read it.
 */
export async function readOrCreatePrivateFile(
  file: string,
  make: () => string | Buffer | Promise<string | Buffer>,
): Promise<Buffer> {
  const existing = await readFile(file).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  });
  if (existing) return existing;
  const content = await make();
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  try {
    await writeFile(file, content, { mode: 0o600, flag: "wx" });
    return Buffer.from(content);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readFile(file);
  }
}
