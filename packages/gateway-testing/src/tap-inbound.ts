import type { Channel, InboundMessage } from "@chorus/gateway";

/**
 * The same channel, with every inbound message also pushed to `seen` before the gateway gets it — so a test can
 * prove a replayed event really reached the gateway (and was dropped there), not that it never arrived.
 * Contract: every other call goes to `channel` unchanged; optional methods exist only where `channel` has them.
 */
export function tapInbound(channel: Channel, seen: InboundMessage[]): Channel {
  const { edit, delete: remove, typing, react } = channel;
  return {
    id: channel.id,
    accountId: channel.accountId,
    capabilities: channel.capabilities,
    start: (sink) =>
      channel.start((message) => {
        seen.push(message);
        return sink(message);
      }),
    stop: () => channel.stop(),
    send: (target, outbound) => channel.send(target, outbound),
    ...(edit === undefined ? {} : { edit: (message, outbound) => edit.call(channel, message, outbound) }),
    ...(remove === undefined ? {} : { delete: (message) => remove.call(channel, message) }),
    ...(typing === undefined ? {} : { typing: (target) => typing.call(channel, target) }),
    ...(react === undefined ? {} : { react: (message, emoji) => react.call(channel, message, emoji) }),
  };
}
