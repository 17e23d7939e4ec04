import { randomInt } from "node:crypto";

/** Letters and digits that cannot be mistaken for each other (no 0/O, 1/I/L). */
export const PAIRING_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const PAIRING_CODE_LENGTH = 8;

/** A fresh random pairing code. Contract: PAIRING_CODE_LENGTH characters from PAIRING_CODE_ALPHABET (crypto RNG). */
export function generatePairingCode(): string {
  let code = "";
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += PAIRING_CODE_ALPHABET[randomInt(PAIRING_CODE_ALPHABET.length)];
  return code;
}

/** Normalises what a person typed: case, spaces and dashes do not matter ("abcd-efgh" → "ABCDEFGH"). */
export function normalizePairingCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, "");
}
