/** Statistics of the bench: medians, spread, and ratios taken round by round. */

export function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Medians and spread of one target's runs. */
export function summarize(runs) {
  if (runs.length === 0) return null;
  const rps = runs.map((r) => r.requestsPerSec);
  const known = (key) => runs.map((r) => r[key]).filter((v) => v !== null && v !== undefined);
  return {
    rounds: runs.length,
    requestsPerSec: { median: median(rps), min: Math.min(...rps), max: Math.max(...rps) },
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    serverCpu: median(known('serverCpu')),
    requestsPerCpuSecond: median(known('requestsPerCpuSecond')),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

/**
 * Median and spread of a/b for one measure, the ratio taken per round: runs of one round are
 * adjacent in time, so a drift of the machine cancels out.
 */
export function ratioOf(a, b, key) {
  const perRound = [];
  for (const run of a.runs) {
    const peer = b.runs.find((r) => r.round === run.round);
    if (peer && run[key] != null && peer[key]) perRound.push(run[key] / peer[key]);
  }
  if (perRound.length === 0) return null;
  return {
    median: median(perRound),
    min: Math.min(...perRound),
    max: Math.max(...perRound),
    perRound,
  };
}

/** A comparison's verdict: its ratio on req/s (what users feel) and on requests per CPU-second. */
export function compare(comparison, a, b) {
  const requestsPerSec = ratioOf(a, b, 'requestsPerSec');
  if (!requestsPerSec) return null;
  return {
    ...requestsPerSec,
    target: comparison.atLeast,
    meetsTarget:
      comparison.atLeast === undefined ? null : requestsPerSec.median >= comparison.atLeast,
    perCpuSecond: ratioOf(a, b, 'requestsPerCpuSecond'),
  };
}
