/** What makes a secret's file or directory not private: any access by group or others. */
const GROUP_OR_OTHERS = 0o077;

/** Whether only the owner can reach a file with this mode (what the store and `racksmith doctor` require). */
export function isPrivateMode(mode: number): boolean {
  return (mode & GROUP_OR_OTHERS) === 0;
}

/** Who besides the owner can reach a file, in words (`readable by group and others`); undefined if nobody. */
export function modeProblem(mode: number): string | undefined {
  if (isPrivateMode(mode)) return undefined;
  const group = access((mode >> 3) & 0o7);
  const others = access(mode & 0o7);
  if (group === others) return `${group} by group and others`;
  return [group && `${group} by group`, others && `${others} by others`].filter(Boolean).join(", ");
}

/** `0644`: the permission bits as `chmod` and `ls -l` users read them. */
export function formatMode(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, "0");
}

/** The chmod that makes a secret private: owner-only read/write, plus search for a directory. */
export function privateModeFix(path: string, kind: "file" | "directory"): string {
  return `chmod ${kind === "directory" ? "700" : "600"} ${path}`;
}

function access(bits: number): string {
  const words = [bits & 0o4 ? "readable" : "", bits & 0o2 ? "writable" : ""].filter(Boolean);
  if (words.length === 0 && bits & 0o1) words.push("accessible");
  return words.join(" and ");
}
