/** `@racksmith/fabric-ufm/testing`: the UFM simulator, for tests and the fleet simulator. */
export * from "../simulator/index.js";
