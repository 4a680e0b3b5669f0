// One benchmark figure against its target, the shape every bench's `--json` output and
// bench/baseline.json hold (bench/check.mjs compares them): `better` says which way is good.
export const ratio = (value, target, better) => ({
  value: Number(value.toFixed(3)),
  target,
  better,
  met: better === 'lower' ? value <= target : value >= target,
});
