/**
 * Messages from one instance of a cluster to every other one, by topic: for what lives in one process and must
 * reach all of them (a WebChat reply for a browser connected to another instance). Not for work that must not be
 * lost: a message reaches only the instances listening when it is published.
 * Contract: `publish` never rejects (a failure is reported as the store reports its warnings); a message reaches
 * the subscribers of its topic on every other listening instance, not on its own, in the order it was published;
 * `subscribe` resolves once this instance is listening, and the function it gives stops that subscription.
 * @example
 * const unsubscribe = await broadcast.subscribe("webchat/main", (payload) => show(JSON.parse(payload)));
 * await broadcast.publish("webchat/main", JSON.stringify(frame));
 */
export interface InstanceBroadcast {
  publish(topic: string, payload: string): Promise<void>;
  subscribe(topic: string, handler: (payload: string) => void): Promise<() => void>;
}
