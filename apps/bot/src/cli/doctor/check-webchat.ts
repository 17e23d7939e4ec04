import { createServer } from "node:net";
import type { BotConfig } from "../../config/bot-config-schema.js";
import type { DoctorCheck } from "./doctor-check.js";

/**
 * Checks that each WebChat address is free to listen on (or already served by a running Chorus).
 * Contract: never rejects.
 */
export async function checkWebchat(config: BotConfig): Promise<DoctorCheck[]> {
  return Promise.all(
    config.channels.webchat.map(async (account): Promise<DoctorCheck> => {
      const name = `webchat/${account.accountId}`;
      const where = `${account.host}:${account.port}`;
      if (account.port === 0) return { name, ok: true, detail: "listens on a free port chosen at start" };
      const problem = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
        const server = createServer();
        server.once("error", (error: NodeJS.ErrnoException) => resolve(error));
        server.listen(account.port, account.host, () => server.close(() => resolve(undefined)));
      });
      if (problem === undefined) return { name, ok: true, detail: `http://${where}/ is free to serve the page` };
      if (problem.code === "EADDRINUSE") {
        const running = await fetch(`http://${where}/healthz`, { signal: AbortSignal.timeout(2000) })
          .then((response) => response.ok)
          .catch(() => false);
        return running
          ? { name, ok: true, detail: `a Chorus is already serving http://${where}/` }
          : { name, ok: false, detail: `${where} is in use by another program; set channels.webchat[].port` };
      }
      return { name, ok: false, detail: `cannot listen on ${where} (${problem.code ?? problem.message})` };
    }),
  );
}
