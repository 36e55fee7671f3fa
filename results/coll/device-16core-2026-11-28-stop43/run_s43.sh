#!/bin/bash
# Device run of stop 43: the fused two-phase modes of ordinary buffers with split synchronisations
# (each waits for the ranks read next, and for every rank only before a region is written again)
# against full barriers, at 8 and 16 ranks bound to cores: stop 42's run_s42.sh with
# build-dev/vsym-bench-old at 3b0cf64 and build-dev/vsym-bench-new with
# ../dev-2core-zen5-2026-11-28-stop43/split.patch, two rounds, 16 ranks to 1 MiB. OUT/s43.tgz.
#   bash results/coll/device-16core-2026-11-28-stop43/run_s43.sh  (carry build-dev)
NAME=${NAME:-s43} ROUNDS=${ROUNDS:-2} E16=${E16:-1M} \
  exec bash "$(dirname "$0")/../device-16core-2026-11-28-stop42/run_s42.sh"
