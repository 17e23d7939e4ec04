import { sessionShard } from "@chorus/store-postgres";
import { queryOnce } from "@chorus/store-postgres/testing";

/** The session key of a Telegram DM with user `userId` in the cluster instances' config (agent `assistant`). */
export function telegramDmSessionKey(userId: number | string): string {
  return `assistant:main:telegram:dm:${userId}`;
}

/**
 * A route for the balancer (`routeBy`) that sends each Telegram webhook update to the instance owning its chat's
 * session now (read from `shard_leases`), as a balancer that routes by chat to the owner would: every message is then
 * taken by its session's owner. Contract: the owners are read once, so call it after the shards settled; an update
 * whose owner is not among `instances` (or that has no chat) goes round robin.
 */
export async function routeToOwners(
  databaseUrl: string,
  instances: readonly { readonly name: string; readonly port: number }[],
): Promise<(body: Buffer) => number | undefined> {
  const { rows } = await queryOnce(databaseUrl, "SELECT shard, owner FROM shard_leases");
  const portOf = new Map(instances.map((instance) => [instance.name, instance.port]));
  const byShard = new Map<number, number>();
  for (const row of rows) {
    // Lease owners are `<instance name>#<random>`.
    const port = portOf.get(String(row.owner ?? "").split("#")[0] ?? "");
    if (port !== undefined) byShard.set(Number(row.shard), port);
  }
  return (body) => {
    try {
      const update = JSON.parse(body.toString("utf8")) as { message?: { chat?: { id?: number } } };
      const chat = update.message?.chat?.id;
      return chat === undefined ? undefined : byShard.get(sessionShard(telegramDmSessionKey(chat)));
    } catch {
      return undefined;
    }
  };
}
