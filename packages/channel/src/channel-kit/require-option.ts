import { ChannelOptionsError } from "./channel-options-error.js";

/**
 * Checks that a required string option is present and non-blank.
 * Contract: returns the value; throws ChannelOptionsError naming the option (never its value) otherwise.
 */
export function requireOption(platform: string, name: string, value: string | undefined): string {
  if (typeof value !== "string" || value.trim().length === 0) {
    throw new ChannelOptionsError(`${platform} channel: option "${name}" is required`);
  }
  return value;
}
