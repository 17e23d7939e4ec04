/**
 * The error a WebChat bound off loopback without an access token stops with.
 * Contract: one sentence naming the config field and the environment variable to set.
 */
export function missingAccessTokenMessage(host: string, where = "channels.webchat[].accessToken"): string {
  return (
    `WebChat on ${host} is reachable from other machines, so it needs an access token: ` +
    `set ${where}: \${CHORUS_WEBCHAT_TOKEN} in chorus.config.yaml and export CHORUS_WEBCHAT_TOKEN=<a long random secret> ` +
    "(or bind host: 127.0.0.1 to keep it on this machine)"
  );
}
