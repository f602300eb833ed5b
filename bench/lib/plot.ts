/**
 * A small SVG line chart: panels stacked vertically, each with its own y axis and one or
 * more series over a shared x axis (seconds). Enough to see whether a line is flat.
 */
export type Series = { label: string; color: string; points: [number, number][] };
export type Panel = { title: string; unit: string; series: Series[] };

const WIDTH = 720;
const PANEL_HEIGHT = 180;
const PAD = { left: 60, right: 150, top: 28, bottom: 30 };

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

export function lineChartSvg(panels: Panel[], opts: { title: string; xLabel: string; markers?: { x: number; label: string }[] }): string {
  const xs = panels.flatMap((p) => p.series.flatMap((s) => s.points.map(([x]) => x)));
  const xMax = Math.max(1, ...xs);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = PANEL_HEIGHT - PAD.top - PAD.bottom;
  const height = panels.length * PANEL_HEIGHT + 24;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${PAD.left}" y="16" font-size="13" font-weight="bold">${esc(opts.title)}</text>`,
  ];
  panels.forEach((panel, i) => {
    const top = 24 + i * PANEL_HEIGHT;
    const ys = panel.series.flatMap((s) => s.points.map(([, y]) => y));
    const yMax = niceMax(Math.max(0, ...ys) * 1.1);
    const px = (x: number) => PAD.left + (x / xMax) * plotW;
    const py = (y: number) => top + PAD.top + plotH - (y / yMax) * plotH;
    out.push(`<text x="${PAD.left}" y="${top + 16}" font-weight="bold">${esc(panel.title)} (${esc(panel.unit)})</text>`);
    out.push(`<rect x="${PAD.left}" y="${top + PAD.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`);
    for (let t = 0; t <= 4; t++) {
      const y = (yMax * t) / 4;
      out.push(`<line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${py(y)}" y2="${py(y)}" stroke="#eee"/>`);
      out.push(`<text x="${PAD.left - 6}" y="${py(y) + 4}" text-anchor="end">${Number(y.toPrecision(3))}</text>`);
    }
    for (let t = 0; t <= 5; t++) {
      const x = (xMax * t) / 5;
      out.push(`<text x="${px(x)}" y="${top + PAD.top + plotH + 14}" text-anchor="middle">${Math.round(x)}</text>`);
    }
    for (const m of opts.markers ?? []) {
      out.push(`<line x1="${px(m.x)}" x2="${px(m.x)}" y1="${top + PAD.top}" y2="${top + PAD.top + plotH}" stroke="#bbb" stroke-dasharray="4 3"/>`);
      if (i === 0) out.push(`<text x="${px(m.x) + 3}" y="${top + PAD.top + 10}" fill="#777">${esc(m.label)}</text>`);
    }
    panel.series.forEach((s, k) => {
      const d = s.points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
      out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${d}"/>`);
      const ly = top + PAD.top + 12 + k * 16;
      out.push(`<line x1="${PAD.left + plotW + 10}" x2="${PAD.left + plotW + 26}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2"/>`);
      out.push(`<text x="${PAD.left + plotW + 30}" y="${ly}">${esc(s.label)}</text>`);
    });
    if (i === panels.length - 1) out.push(`<text x="${PAD.left + plotW / 2}" y="${top + PANEL_HEIGHT - 2}" text-anchor="middle">${esc(opts.xLabel)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
