/* The round trip of a cache line between two cores, measured the same way by vsym-bench and by
 * the peer programs (mpi-coll), so that their records say which state of the machine each size
 * ran in ("core_rtt_ns"; vsym_bench_core_rtt in bench.h says why it matters). No libvsym: the
 * clock is CLOCK_MONOTONIC_RAW, read here. */
#ifndef VSYM_BENCH_RTT_H
#define VSYM_BENCH_RTT_H

#include <stdint.h>

/* Round trips per measurement: RTT_WARM untimed, then RTT_TIMED timed, each on its own; their
 * median counts (where ranks share cores the scheduler stretches some rounds: their mean read 1266
 * ns once between rows of 446-480 at 4 ranks on the 2-core host; their shortest read 250-270 ns
 * far, where the median reads 400-600, and 100-150 near). */
enum { VSYM_RTT_WARM = 10, VSYM_RTT_TIMED = 100 };

/* One side of the ping-pong on *w (a line both sides reach) from base: side 0 stores the odd
 * values and times the round trips, side 1 the even ones. The median round trip in ns on side 0,
 * 0 on side 1, -1 when the other side did not answer within 1 s. Each measurement advances the
 * sequence by 2 * (VSYM_RTT_WARM + VSYM_RTT_TIMED): the next one starts there. */
double vsym_rtt_side(volatile uint64_t *w, uint64_t base, int side);

/* The round trip between two threads of this process pinned to the first two CPUs it may run on,
 * or to the machine's first two where it may run on one (where ranks share cores: the state of
 * the machine's cores, not the ranks'); -1 on a machine of one CPU. */
double vsym_rtt_threads(void);

#endif
