/**
 * A confidence (0 to 1) to `places` decimals, rounded down, never up: 0.94987 rounded to the
 * nearest shows 0.950 (or 0.95), and `--auto` would seem to take what the calibration put below
 * its threshold. The tiny nudge keeps a value already on the grid where it is (0.97 is
 * 969.99999… thousandths).
 */
export function confidenceRoundedDown(confidence: number, places: number): number {
  const scale = 10 ** places;
  return Math.floor(confidence * scale + 1e-9) / scale;
}
