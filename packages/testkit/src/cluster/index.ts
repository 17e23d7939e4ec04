export { type ClusterInstanceConfigOptions, clusterInstanceConfig } from "./cluster-instance-config.js";
