import { arch, cpus, loadavg, platform, totalmem } from "node:os";

/** Where the numbers came from. */
export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started: other work on the machine skews timings. */
  loadAverage: number;
}

/** Describes this machine and runtime. */
export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? "unknown cpu",
    cores: list.length,
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${platform()} ${arch()}`,
    loadAverage: loadavg()[0] ?? 0,
  };
}

/** One line for the report header, e.g. "AMD EPYC · 2 cores · 8 GB · Node v24.1.0 · linux x64 · load 0.3". */
export function describeMachine(info: MachineInfo): string {
  const load = `load ${info.loadAverage.toFixed(1)}`;
  return `${info.cpuModel} · ${info.cores} cores · ${info.memoryGb} GB · Node ${info.node} · ${info.platform} · ${load}`;
}
