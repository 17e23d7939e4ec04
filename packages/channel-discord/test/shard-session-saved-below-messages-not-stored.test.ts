import type { IngressLease, IngressState } from "@chorus/gateway";
import { describe, expect, it } from "vitest";
import { ReplayFirstInbound } from "../src/replay-first-inbound.js";
import { ShardSessionRecorder } from "../src/shard-session-recorder.js";

/** A lease that keeps what was saved with it, as the next holder would read it. */
function recordingLease(): IngressLease & { saved: IngressState[] } {
  const saved: IngressState[] = [];
  return { unit: "discord:test:0", epoch: 1, state: undefined, saved, save: async (state) => void saved.push(state) };
}

const message = (s: number, id: string) => ({ t: "MESSAGE_CREATE", s, d: { id } });

// An instance killed with -9 after it saved a message's sequence with its lease, but before the gateway stored the
// message, left that message to no one: the next holder RESUMEs after the saved sequence, and Discord replays only what
// came after it. The sequence saved stays below every message not yet handed on.
describe("a Discord shard's saved session", () => {
  it("stays below a message the gateway has not taken yet, and moves on once it has", () => {
    const lease = recordingLease();
    const recorder = new ShardSessionRecorder(lease, new ReplayFirstInbound(false));
    recorder.observe({ t: "READY", s: 1, d: { session_id: "sess", resume_gateway_url: "ws://127.0.0.1:1" } });
    recorder.observe(message(2, "m2"));
    recorder.observe(message(3, "m3"));
    recorder.observe({ t: "TYPING_START", s: 4, d: {} });
    recorder.save();
    expect(lease.saved.at(-1)).toMatchObject({ sessionId: "sess", sequence: 1 });

    recorder.handedOn("m2");
    recorder.save();
    expect(lease.saved.at(-1)).toMatchObject({ sequence: 2 });

    recorder.handedOn("m3");
    recorder.save();
    expect(lease.saved.at(-1)).toMatchObject({ sequence: 4 });
  });

  it("saves nothing while the shard's live messages wait for a takeover's replay", () => {
    const lease = recordingLease();
    const inbound = new ReplayFirstInbound(true);
    const recorder = new ShardSessionRecorder(lease, inbound);
    recorder.observe({ t: "READY", s: 1, d: { session_id: "sess", resume_gateway_url: "ws://127.0.0.1:1" } });
    recorder.save();
    expect(lease.saved).toEqual([]);
    inbound.release();
    recorder.save();
    expect(lease.saved.at(-1)).toMatchObject({ sequence: 1 });
  });
});
