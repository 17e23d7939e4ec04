/** Formats with a space as the thousands separator and fixed decimals, e.g. 1 234.5. */
export function formatNumber(value: number, decimals = 1): string {
  const [whole = "0", fraction] = value.toFixed(decimals).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** A ratio such as "0.74×". */
export function formatRatio(value: number): string {
  return `${value.toFixed(2)}×`;
}
