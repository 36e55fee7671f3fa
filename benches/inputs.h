/* The contents of the buffers a benchmark times, the same in vsym-bench's collectives and fused
 * suites and in mpi-coll: every byte VSYM_BENCH_INPUT_BYTE, written before the first timed call
 * (--check then writes its own values over what it checks); their records say "input_byte".
 * Header only, no libvsym.
 *
 * Never left as malloc gave them: the compiler turns malloc + memset(0) into calloc, and pages
 * never written are the kernel's one zero page, which every read finds in the first-level cache.
 * Until stop 52 the all-reduce read such a src out of place (where no --check or in-place call
 * had written it): 4 ranks on the 2-vCPU Intel guest, 4 MiB, 1.10-1.17 ms, then 1.39-1.48 ms once
 * anything had written src, in place or out (results/coll/dev-2core-intel-2026-11-29-stop52);
 * Open MPI's program read such pages too. Not zeros either: some CPUs drop stores of zeros into
 * lines of zeros. 0x3c in every byte is a normal number of every dtype (f16 1.06, bf16 0.0115,
 * f32 0.0115, f64 1.6e-18), so sums in place grow towards infinity, never through subnormals. */
#ifndef VSYM_BENCH_INPUTS_H
#define VSYM_BENCH_INPUTS_H

#include <stddef.h>
#include <string.h>

enum { VSYM_BENCH_INPUT_BYTE = 0x3c };

static inline void vsym_bench_input_fill(void *buf, size_t len)
{
    memset(buf, VSYM_BENCH_INPUT_BYTE, len);
}

#endif
