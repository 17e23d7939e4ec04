import type { Script } from "@chorus/core/testing";
import type { Gateway } from "@chorus/gateway";

/** What shuts the platform off: `NetworkGate` of @chorus/testkit, typed here so the gateway needs no testkit. */
interface ShuttableGate {
  shut(): void;
}

/**
 * Contract: a script whose first answer is written as `gate` shuts: the platform becomes unreachable in the middle of a turn.
 */
export function shutsGateWhileAnswering(gate: ShuttableGate, first: string, later: string): Script {
  return (_context, call) => {
    if (call === 0) gate.shut();
    return call === 0 ? first : later;
  };
}

/** Contract: counts, from now on, the gateway's failed deliveries that the outbox will retry. */
export function countRetriedDeliveries(gateway: Gateway): () => number {
  let retried = 0;
  gateway.events.subscribe((delivery) => {
    if (delivery.type === "delivery_failed" && delivery.willRetry) retried++;
  });
  return () => retried;
}
