/* The suite table of vsym-bench, generated from suites.def. */
#include "bench.h"

#define VSYM_BENCH_SUITE(id) extern const vsym_bench_suite_t vsym_bench_suite_##id;
#include "suites.def"
#undef VSYM_BENCH_SUITE

const vsym_bench_suite_t *const vsym_bench_suites[] = {
#define VSYM_BENCH_SUITE(id) &vsym_bench_suite_##id,
#include "suites.def"
#undef VSYM_BENCH_SUITE
};

const int vsym_bench_suite_count = (int)(sizeof(vsym_bench_suites) / sizeof(vsym_bench_suites[0]));
