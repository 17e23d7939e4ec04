/**
 * Identity linking for `GatewayMemoryOptions.personOf`: person name → their accounts (`<channel>:<peerId>`). A listed
 * account is `person:<name>`, any other its own `<channel>:<peerId>` — so a linked person's facts follow them across
 * platforms' DMs. Example: `linkedPeople({ alice: ["telegram:123", "discord:456"] })`.
 */
export function linkedPeople(
  people: Readonly<Record<string, readonly string[]>>,
): (channel: string, peerId: string) => string {
  const personByAccount = new Map<string, string>();
  for (const [person, accounts] of Object.entries(people)) {
    for (const account of accounts) personByAccount.set(account, `person:${person}`);
  }
  return (channel, peerId) => {
    const account = `${channel}:${peerId}`;
    return personByAccount.get(account) ?? account;
  };
}
