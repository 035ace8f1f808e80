"""`vtcode batch`: many `vtcode exec` tasks, on this machine or a cluster, into one resumable folder."""
