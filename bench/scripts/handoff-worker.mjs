// The worker of bench/scripts/handoff.mjs: hands its task straight back (no work), so a
// round trip is the hand-off alone.
export default function echo(task) {
  return task
}
