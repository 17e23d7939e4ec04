import { Agent, request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeTelegram, startNetworkGate, TestCleanup } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

/** A fake Telegram behind a gate, and one kept-alive connection to it through the gate. */
async function gatedTelegram() {
  const telegram = cleanup.track(await startFakeTelegram());
  const gate = cleanup.track(await startNetworkGate(telegram.apiRoot));
  const agent = cleanup.track(new Agent({ keepAlive: true, maxSockets: 1 }));
  return { telegram, gate, agent, url: `${gate.url}/bot${telegram.token}/getMe` };
}

/** One getMe over `agent`: resolves with the HTTP status, rejects with the network error. */
function getMe(url: string, agent: Agent, timeoutMs?: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    if (timeoutMs !== undefined) {
      req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    }
    req.end();
  });
}

describe("startNetworkGate", () => {
  it("passes calls while open, cuts even a kept-alive connection when shut, and lets calls through again", async () => {
    const { telegram, gate, agent, url } = await gatedTelegram();

    expect(await getMe(url, agent)).toBe(200);
    gate.shut();
    expect(gate.isOpen).toBe(false);
    // The kept-alive connection is gone, and a new one is cut as it arrives.
    await expect(getMe(url, agent)).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|EPIPE/) });
    await expect(getMe(url, agent)).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|EPIPE/) });
    expect(gate.refused).toBeGreaterThanOrEqual(1);
    gate.open();
    expect(await getMe(url, agent)).toBe(200);
    expect(telegram.callsTo("getMe")).toHaveLength(2);
  });

  it("stalls: connections stay open and hear nothing until the client gives up; after open new ones work", async () => {
    const { telegram, gate, agent, url } = await gatedTelegram();
    expect(await getMe(url, agent)).toBe(200);

    gate.stall();
    expect(gate.isOpen).toBe(false);
    // The kept-alive connection is silent now: only the client's own timeout ends the call.
    await expect(getMe(url, agent, 300)).rejects.toMatchObject({ code: "ETIMEDOUT" });
    expect(telegram.callsTo("getMe")).toHaveLength(1);
    gate.open();
    expect(await getMe(url, agent)).toBe(200);
    expect(gate.refused).toBe(0);
  });
});
