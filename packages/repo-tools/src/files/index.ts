export { packageFolders } from "./packages.ts";
export { repositoryRoot } from "./root.ts";
export { listFiles } from "./walk.ts";
