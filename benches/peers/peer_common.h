/* Shared pieces of the peer programs (oshmem-bench, memcpy-bench): the reference measurements
 * that benches/peers/compare runs next to vsym-bench. They time exactly as vsym-bench does
 * (CLOCK_MONOTONIC_RAW through vsym_util_time_ns, batches sized so that reading the clock costs
 * under 1%, the same default iteration counts and window) and write the same JSON-lines records
 * (results/README.md), so that one script can compare them size by size.
 *
 * They use libvsym's utilities only (the size parser, the clock, vsym_sysinfo_get), never its
 * communication, so they can be linked into an OpenSHMEM program. */
#ifndef VSYM_PEER_COMMON_H
#define VSYM_PEER_COMMON_H

#include <stddef.h>
#include <jansson.h>
#include "results.h"

typedef struct peer_opts {
    const char *tool;  /* "oshmem-bench", "memcpy-bench" */
    size_t min_size;   /* -b */
    size_t max_size;   /* -e */
    size_t factor;     /* -f */
    long iterations;   /* -n (0: default) */
    long warmup;       /* -w (-1: default) */
    int window;        /* --window */
    const char *json;  /* --json FILE ("-": stdout) */
    const char *flags; /* --flags TEXT: how the program was started (launcher flags), recorded */
    const char *only;  /* --only NAME: run one measurement (e.g. "put") */
    int loaded;        /* memcpy-bench --loaded: the other allowed CPUs copying meanwhile (set by
                        * the program; -1 until then) */
    int ranks;         /* set by the program */
    int touch;         /* mpi-coll --touch: every line of src stored before each call (timed);
                        * its records say "touch": true */
    int consume;       /* mpi-coll --consume: every line of the output loaded after each call
                        * (timed); its records say "consume": true */
    int input_byte;    /* set by a program whose buffers hold this byte before they are timed
                        * (inputs.h), recorded as "input_byte"; -1 (the default): not recorded */
} peer_opts_t;

typedef struct peer_stats {
    long iterations, warmup, batch, window;
    double lat_min, lat_median, lat_avg, lat_p99, lat_p999, lat_max; /* us */
    double bw_avg, bw_peak;                                          /* GB/s */
    double mops;
    double seconds;
    double core_rtt_ns; /* the cores' round trip before the size (rtt.h), recorded when > 0 */
} peer_stats_t;

typedef void (*peer_unit_fn)(void *arg, long i);

/* Parse the options (sizes with the project's one size parser); exits 2 on a bad option. */
void peer_parse(int argc, char **argv, const char *tool, peer_opts_t *o);

/* --only NAME must be one of the program's n names: else a line naming them, exit 2. */
void peer_check_only(const peer_opts_t *o, const char *const *names, size_t n);

/* The clock's cost (ns per reading). */
double peer_clock_ns(void);

/* Default timed units for a unit of `bytes` payload (vsym-bench's rule) and the window. */
long peer_iterations(const peer_opts_t *o, double bytes);
long peer_window(const peer_opts_t *o, size_t size);
/* A collective's elements for size s as in nccl-tests (s: one rank's whole buffer, made of per
 * blocks of *count_p elements of es bytes); returns the bytes they cover, 0 when s is too small
 * for one element per block. */
size_t peer_coll_count(size_t s, size_t per, size_t es, int *count_p);

/* Warm up, size the batch, time `iterations` units (exactly that many when > 0). */
void peer_measure(const peer_opts_t *o, double clock_ns, peer_unit_fn fn, void *arg,
                  double bytes_per_unit, double ops_per_unit, double lat_divisor, long iterations,
                  peer_stats_t *st);

/* Open the output; write one record (suite, op, mode, size, stats, configuration). */
vsym_bench_results_t *peer_open(const peer_opts_t *o);
void peer_emit(vsym_bench_results_t *r, const peer_opts_t *o, double clock_ns, const char *suite,
               const char *op, const char *mode, size_t size, const peer_stats_t *st);

#endif
