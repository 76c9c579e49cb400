/** The bench's report: a table per target, the comparisons with their goals, and the SVG chart. */

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const fixed = (n, digits) => (n === null || n === undefined ? '—' : n.toFixed(digits));
export const percent = (n) => (n === null || n === undefined ? '—' : `${Math.round(n * 100)}%`);
export const count = (n) => (n === null || n === undefined ? '—' : int.format(n));

export function flagsOf(summary) {
  const flags = [];
  if (summary.non2xx > 0) flags.push(`${int.format(summary.non2xx)} unexpected statuses`);
  if (summary.errors > 0) flags.push(`${int.format(summary.errors)} errors`);
  return flags.length > 0 ? `!! ${flags.join(', ')}` : '';
}

/** One line per target: medians over the rounds, spread, latency, CPU, features switched on. */
export function printTargets(states) {
  const rows = [
    ['target', 'req/s median', 'min–max', 'p99 ms', 'server CPU', 'req/CPU-s', 'flags'],
  ];
  for (const state of states) {
    if (state.status !== 'ok') {
      rows.push([state.target.name, `${state.status}: ${state.reason}`]);
      continue;
    }
    const s = state.summary;
    rows.push([
      state.target.name,
      int.format(s.requestsPerSec.median),
      `${int.format(s.requestsPerSec.min)}–${int.format(s.requestsPerSec.max)}`,
      fixed(s.p99Ms, 1),
      percent(s.serverCpu),
      count(s.requestsPerCpuSecond),
      flagsOf(s),
    ]);
  }
  // Skipped and failed rows carry one message instead of columns, so they do not set widths.
  const full = rows.filter((r) => r.length > 2);
  const widths = rows[0].map((_, i) =>
    Math.max(...(i === 0 ? rows : full).map((r) => r[i].length)),
  );
  const right = new Set([1, 2, 3, 4, 5]);
  console.log('\ntargets');
  for (const row of rows) {
    if (row.length === 2) {
      console.log(`  ${row[0].padEnd(widths[0])}   ${row[1]}`);
      continue;
    }
    const cells = row.map((cell, i) =>
      right.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]),
    );
    console.log(`  ${cells.join('   ').trimEnd()}`);
  }
  const withFeatures = states.filter((s) => s.features !== undefined);
  if (withFeatures.length > 0) {
    console.log('\nfeatures switched on (those whose export the built package has)');
    for (const s of withFeatures) {
      console.log(`  ${s.target.name.padEnd(widths[0])}   ${s.features.join(', ') || 'none'}`);
    }
  }
}

const spread = (r) => `${r.median.toFixed(2)} (per round ${r.min.toFixed(2)}–${r.max.toFixed(2)})`;

/** The comparisons, by group, each with its goal when it has one and whether it holds. */
export function printComparisons(results) {
  let group;
  for (const { comparison, ratio, missing } of results) {
    if (comparison.group !== group) {
      group = comparison.group;
      console.log(`\n${group}`);
    }
    console.log(`  ${comparison.name}: ${comparison.says}`);
    if (!ratio) {
      console.log(`    n/a (${missing})`);
      continue;
    }
    let verdict = '';
    if (ratio.meetsTarget === true) verdict = `, meets the goal (>= ${ratio.target})`;
    if (ratio.meetsTarget === false) {
      verdict = `, BELOW the goal (>= ${ratio.target}) by ${Math.round((1 - ratio.median / ratio.target) * 100)}%`;
    }
    console.log(`    req/s:     ${spread(ratio)}${verdict}`);
    if (ratio.perCpuSecond) console.log(`    per CPU-s: ${spread(ratio.perCpuSecond)}`);
  }
}

const escapeXml = (text) =>
  String(text).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c],
  );

/**
 * A horizontal bar chart of each stack's share of the baseline's req/s (medians), ours in one
 * colour and the peers in another, with the 1.0 line marked; `subtitle` is a line or a list of
 * lines. Plain SVG, no script or font files.
 */
export function shareChart({ title, subtitle, bars }) {
  const rowHeight = 26;
  const labelWidth = 190;
  const chartWidth = 440;
  const lines = [subtitle].flat();
  const top = 44 + lines.length * 18;
  const height = top + bars.length * rowHeight + 40;
  const width = labelWidth + chartWidth + 110;
  const max = Math.max(1, ...bars.map((b) => b.share));
  const x = (share) => labelWidth + (share / max) * chartWidth;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="13">`,
    // The title is what screen readers announce for the chart.
    `<title>${escapeXml(title)}: ${escapeXml(bars.map((b) => `${b.label} ${b.share.toFixed(2)}`).join(', '))}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="12" y="24" font-size="16" font-weight="600" fill="#111">${escapeXml(title)}</text>`,
    ...lines.map(
      (line, i) => `<text x="12" y="${44 + i * 18}" fill="#555">${escapeXml(line)}</text>`,
    ),
  ];
  bars.forEach((bar, i) => {
    const y = top + i * rowHeight;
    const fill = bar.kind === 'ours' ? '#2f6fdd' : '#9aa3ad';
    parts.push(
      `<text x="${labelWidth - 8}" y="${y + 16}" text-anchor="end" fill="#222">${escapeXml(bar.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 4}" width="${Math.max(1, x(bar.share) - labelWidth).toFixed(1)}" height="${rowHeight - 8}" fill="${fill}"/>`,
      `<text x="${(x(bar.share) + 6).toFixed(1)}" y="${y + 16}" fill="#222">${bar.share.toFixed(2)}</text>`,
    );
  });
  const one = x(1).toFixed(1);
  const bottom = top + bars.length * rowHeight;
  parts.push(
    `<line x1="${one}" y1="${top - 4}" x2="${one}" y2="${bottom + 4}" stroke="#d33" stroke-dasharray="4 3"/>`,
    `<text x="${one}" y="${bottom + 20}" text-anchor="middle" fill="#d33">1.0 = bare node:http</text>`,
    `<rect x="12" y="${bottom + 10}" width="12" height="12" fill="#2f6fdd"/>`,
    `<text x="30" y="${bottom + 20}" fill="#222">ours</text>`,
    `<rect x="72" y="${bottom + 10}" width="12" height="12" fill="#9aa3ad"/>`,
    `<text x="90" y="${bottom + 20}" fill="#222">peers</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
