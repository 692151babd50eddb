import { describeFault } from './faults.js';
import type { TortureReport } from './run.js';

/** The bank test's printed report: operations, faults, invariants, and the verdict. */
export function formatReport(report: TortureReport): string {
  const lines: string[] = [];
  const o = report.operations;
  lines.push('', `Bank test — seed ${report.seed}`);
  lines.push(
    `operations: ${o.tried} tried, ${o.acknowledged} acknowledged, ${o.refused} refused, ${o.unacknowledged} unacknowledged (${report.retried} retried with their key)`,
  );
  for (const [command, c] of Object.entries(report.byCommand)) {
    lines.push(
      `  ${command.padEnd(16)} ${String(c.tried).padStart(6)} tried ${String(c.ack).padStart(6)} ack ${String(c.refused).padStart(6)} refused ${String(c.unack).padStart(5)} unack`,
    );
    const reasons = Object.entries(report.refusals[command] ?? {}).sort(([, a], [, b]) => b - a);
    for (const [why, n] of reasons.slice(0, 3))
      lines.push(`      ${String(n).padStart(6)} × ${why}`);
  }
  lines.push(
    `answers: ${Object.entries(report.answers)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k}×${n}`)
      .join(' ')}`,
  );
  lines.push(`5xx or connection errors outside fault windows: ${report.unexplained.length}`);
  for (const u of report.unexplained.slice(0, 5)) {
    lines.push(`  t+${(u.atMs / 1000).toFixed(1)} s ${u.what}: ${u.answer}`);
  }
  lines.push(
    `balance reads: ${report.reads.tried} (${report.reads.observed} observed, ${report.reads.failed} failed)`,
  );
  lines.push(`supplies whose payer's page was lost after the widget: ${report.pagesLost}`);
  lines.push(`faults injected: ${report.faults.length}`);
  for (const f of report.faults) {
    lines.push(
      `  ${describeFault(f).replace(/^t\+\S+ s\s+/, `t+${(f.startedAtMs / 1000).toFixed(1)} s  `)} (${(f.durationMs / 1000).toFixed(1)} s)${f.error ? ` FAILED: ${f.error}` : ''}`,
    );
  }
  if (report.check) {
    lines.push(`invariants checked over ${report.check.events} events:`);
    for (const inv of report.check.invariants) {
      lines.push(`  ${inv.violations ? 'FAIL' : 'ok  '} ${inv.name} (${inv.checked} checked)`);
    }
  }
  const d = report.durations;
  lines.push(
    `durations: start ${(d.startMs / 1000).toFixed(1)} s, load ${(d.loadMs / 1000).toFixed(1)} s, settle ${(d.settleMs / 1000).toFixed(1)} s, check ${(d.checkMs / 1000).toFixed(1)} s`,
  );
  if (report.ok) {
    lines.push('verdict: OK, no violation');
  } else {
    lines.push(`verdict: ${report.violations.length} VIOLATION(S); first counterexample:`);
    lines.push(`  [${report.violations[0]!.invariant}] ${report.violations[0]!.detail}`);
    for (const v of report.violations.slice(1, 10))
      lines.push(`  also [${v.invariant}] ${v.detail}`);
    lines.push(`logs kept in ${report.runDir}`);
    lines.push(`replay: npm run torture -- --seed ${report.seed}`);
  }
  return lines.join('\n');
}
