import { randomUUID } from "node:crypto";

/** A fresh run id for a child run. */
export function newChildRunId(): string {
  return `run_${randomUUID()}`;
}

/**
 * A child's session id, in the gateway's sub-agent key shape
 * `agent:<agent>:sub:<depth>:<childRunId>:<parentSession>`: lineage and depth live in the id and
 * never change (OpenClaw kept depth in mutable metadata and got stale-lineage bugs).
 */
export function childSessionId(agent: string, depth: number, childRunId: string, parentSession: string): string {
  return `agent:${agent}:sub:${depth}:${childRunId}:${parentSession}`;
}
