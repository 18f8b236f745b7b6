/** A gauge's progress: the value's share of the way from `min` to the goal, in percent (past 100 when the goal is beaten); null without a value. */
export function percentOfGoal(value: number | null, goal: number, min = 0): number | null {
  if (value === null || goal <= min) return null;
  return ((value - min) / (goal - min)) * 100;
}
