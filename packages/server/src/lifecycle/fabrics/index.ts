export { INSTANCE_FABRICS, type InstanceFabric, type InstanceFabricTarget } from "./instanceFabric.js";
