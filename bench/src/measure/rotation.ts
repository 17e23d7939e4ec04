/** The list rotated left by `round` places, so each entry goes first in turn across rounds. */
export function rotated<T>(items: readonly T[], round: number): T[] {
  if (items.length === 0) return [];
  const shift = round % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
