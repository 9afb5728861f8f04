/**
 * compare.json's `horizons`: when the compared runs hold workflow tasks, the shared tasks grouped by
 * horizon (steps per task; single-family tasks are horizon 1) and compared like a scenario row — mean
 * reward, pass rate, pass^k and, for workflows, the progress rate, each delta with its paired bootstrap
 * interval (tasks resampled within each scenario, as for every other row).
 */
import type { CompareRow } from "./compare.ts";

/** scenario → the task ids compared. */
type Tasks = Map<string, string[]>;

/**
 * `{ horizons }` keyed by horizon when some shared task is a workflow, else nothing. `horizonOf` gives a
 * task's steps; `row` compares a set of tasks (compare.ts's row, seeded by `label`).
 */
export function horizonRows(
  shared: Tasks,
  horizonOf: (scenario: string, taskId: string) => number,
  row: (tasks: Tasks, label: string) => CompareRow,
): { horizons?: Record<string, CompareRow> } {
  const byHorizon = new Map<number, Tasks>();
  for (const [scenario, ids] of shared)
    for (const id of ids) {
      const h = horizonOf(scenario, id);
      const tasks = byHorizon.get(h) ?? new Map<string, string[]>();
      tasks.set(scenario, [...(tasks.get(scenario) ?? []), id]);
      byHorizon.set(h, tasks);
    }
  if (![...byHorizon.keys()].some((h) => h > 1)) return {};
  const horizons = [...byHorizon.keys()].sort((x, y) => x - y);
  return {
    horizons: Object.fromEntries(horizons.map((h) => [String(h), row(byHorizon.get(h)!, `horizon-${h}`)])),
  };
}
