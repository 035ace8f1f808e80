"""Pure parts of `vtcode batch`: the tasks file, per-task results, resume rules, predictions."""
