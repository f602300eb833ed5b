/**
 * What every benchmark hands back: rows of target / figure / baseline / verdict, and
 * notes that say how the figure was obtained and what dominates it.
 */
export type Row = {
  metric: string;
  target: string;
  figure: string;
  baseline: string;
  /** undefined: an informative row without a target. */
  pass?: boolean;
};

export type Section = {
  id: string;
  title: string;
  rows: Row[];
  notes: string[];
  seconds: number;
  error?: string;
};

const verdict = (pass: boolean | undefined) => (pass === undefined ? '-' : pass ? 'pass' : '**FAIL**');
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderSection(section: Section): string {
  const lines = [`### ${section.title}`, ''];
  if (section.error) lines.push(`**Did not complete:** ${cell(section.error)}`, '');
  if (section.rows.length > 0) {
    lines.push('| Metric | Target | Figure | Baseline (same run) | Result |', '| --- | --- | --- | --- | --- |');
    for (const r of section.rows) lines.push(`| ${cell(r.metric)} | ${cell(r.target)} | ${cell(r.figure)} | ${cell(r.baseline)} | ${verdict(r.pass)} |`);
    lines.push('');
  }
  for (const note of section.notes) lines.push(`- ${note}`);
  if (section.notes.length > 0) lines.push('');
  lines.push(`_${section.seconds.toFixed(0)} s_`, '');
  return lines.join('\n');
}

export function sectionFailed(section: Section): boolean {
  return section.error !== undefined || section.rows.some((r) => r.pass === false);
}

/** Runs one benchmark, turning a crash into a section that says so. */
export async function runSection(id: string, title: string, run: () => Promise<Omit<Section, 'id' | 'title' | 'seconds'>>): Promise<Section> {
  const started = Date.now();
  try {
    const result = await run();
    return { id, title, ...result, seconds: (Date.now() - started) / 1000 };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    console.error(`[bench] ${id} failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
    return { id, title, rows: [], notes: [], error: message.split('\n')[0] ?? message, seconds: (Date.now() - started) / 1000 };
  }
}
