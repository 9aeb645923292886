#!/usr/bin/env bash
# Prints how many compile jobs to run at once: one per core, but no more than the memory
# available now holds at BSX_JOB_MEMORY_MB per job, so that a small machine does not swap.
# The default is the peak memory of the largest test's compile, with a margin (README.md).
set -euo pipefail

per_job_mb=${BSX_JOB_MEMORY_MB:-2048}
jobs=$(nproc)
available_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null || true)
if [[ -n $available_kb ]]; then
  fit=$((available_kb / 1024 / per_job_mb))
  if ((fit < jobs)); then jobs=$fit; fi
  if ((jobs < 1)); then jobs=1; fi
fi
echo "$jobs"
