#!/bin/bash
# Device run 4 of stop 39: the autotune starting from AUTO's rule. build-dev/vsym-bench-s39c
# (main's bc35ff2: a second look at every fused winner, against the baseline) and
# vsym-bench-s39d (a second look wherever the winner is not the rule's mode, against that mode),
# in turns, the fused suite with a fresh autotune table per launch at 4, 8 and 16 ranks bound to
# cores, 64 B-64 KiB by 4 (fused_tuned.sh). OUT/$NAME.tgz; tables:
# ../dev-2core-zen4-2026-11-27-stop39/ab_tune_table.py DIR and auto_cost.py DIR.
#   bash results/coll/device-16core-2026-11-27-stop39/run_s39d.sh  (carry build-dev)
NAME=${NAME:-s39d} A=s39c B=s39d exec bash "$(dirname "$0")/run_s39_tune.sh"
