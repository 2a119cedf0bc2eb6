import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { rawSegments } from "../mockup/resourcePath.js";
import { RecorderOutputNotEmptyError } from "./errors.js";

/**
 * Writes a recording in DMTF Mockup-Creator full form: `<out>/redfish/index.json`, then one folder per resource
 * under `<out>/redfish/v1` named after the decoded path segments, holding `index.json` (4-space JSON) or
 * `index.xml`.
 */
export class RecordingWriter {
  readonly out: string;

  constructor(out: string) {
    this.out = resolve(out);
  }

  /** Creates the folder; refuses a non-empty one unless `overwrite`. */
  async prepare(overwrite: boolean): Promise<void> {
    await mkdir(this.out, { recursive: true });
    if (!overwrite && (await readdir(this.out)).length > 0) throw new RecorderOutputNotEmptyError(this.out);
  }

  /** The folder of a resource path, or undefined when a segment could escape the output folder. */
  directoryOf(path: string): string | undefined {
    const segments = rawSegments(path);
    if (segments[0] !== "redfish" || segments[1] !== "v1") return undefined;
    const names = segments.slice(2).map(decode);
    if (names.some((name) => name === undefined || name === "." || name === ".." || /[/\\\0]/.test(name))) {
      return undefined;
    }
    return join(this.out, "redfish", "v1", ...(names as string[]));
  }

  async writeJson(directory: string, body: unknown): Promise<void> {
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, "index.json"), `${JSON.stringify(body, null, 4)}\n`);
  }

  async writeXml(directory: string, text: string): Promise<void> {
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, "index.xml"), text);
  }

  /** `<out>/redfish/index.json`: the versions document (`{"v1": "/redfish/v1/"}`). */
  async writeVersions(body: unknown): Promise<void> {
    await this.writeJson(join(this.out, "redfish"), body);
  }

  /** `<out>/redfish/v1/$metadata/index.xml`. */
  async writeMetadata(text: string): Promise<void> {
    await this.writeXml(join(this.out, "redfish", "v1", "$metadata"), text);
  }

  async writeFile(name: string, text: string): Promise<void> {
    await writeFile(join(this.out, name), text);
  }
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
