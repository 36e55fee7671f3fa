/* vsym-bench framework: the pieces every benchmark suite shares.
 *
 * vsym-bench is one driver with many suites. A suite is a struct vsym_bench_suite_t defined in
 * its own file (benches/suite_<x>.c) and listed with ONE line in benches/suites.def:
 *
 *     VSYM_BENCH_SUITE(allreduce)    -> the driver looks for `vsym_bench_suite_allreduce`
 *
 * benches/vsym-bench.cmake compiles every benches/suite_*.c, so nothing else needs editing.
 *
 * The driver parses the options (vsym_bench_opts_t, the same for every suite; errors exit 2
 * before anything starts), joins the job (vsym_init), checks the rank count against the suite,
 * measures the clock, gathers the effective configuration, opens the JSON-lines file, then calls
 * the suite's run(). A suite typically does:
 *
 *     for (vsym_bench_pair_first(b); vsym_bench_pair_valid(b); vsym_bench_pair_next(b))
 *         for (int k = 0; k < b->nsizes; k++) {
 *             size_t s = b->sizes[k];
 *             vsym_bench_stats_t st;
 *             vsym_bench_stats_init(&st, s);
 *             if (b->in_pair)                       // ranks outside the pair skip the work
 *                 rc = vsym_bench_measure(b, &timing, &st);  // initiator gets the numbers
 *             vsym_bench_report(b, "put", "lat", &st, b->pair_a, NULL);  // collective
 *         }
 *
 * vsym_bench_report() is collective over the world: it takes the statistics of one rank (the
 * initiator), prints a table row on rank 0 (perftest column style, or CSV with --csv) and
 * writes one JSON record with the complete configuration (results/README.md is the schema).
 * Suites with other columns (collectives: algbw, busbw) use vsym_bench_table_header/row and
 * vsym_bench_record_new/emit directly.
 *
 * Exit status of the driver: 0 success; 1 a run-time error or wrong data (--check); 2 bad
 * options or an unsupported rank count (one line on stderr). */
#ifndef VSYM_BENCH_H
#define VSYM_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <vsym/vsym.h>
#include "results.h"

/* ---- Options ------------------------------------------------------------------------------ */

enum {
    VSYM_BENCH_LAT = 1, /* --mode lat */
    VSYM_BENCH_BW = 2,  /* --mode bw */
};

#define VSYM_BENCH_EXIT_USAGE 2

/* The most ranks the point-to-point suites support: the configuration carries a transport
 * matrix of ranks x ranks entries, and --pairs measures ranks x (ranks - 1) / 2 pairs. */
#define VSYM_BENCH_MAX_RANKS 1024

#define VSYM_BENCH_MAX_SIZES 1000 /* sizes of one sweep at most */

typedef struct vsym_bench_opts {
    const char *suite;     /* the suite name (first non-option argument) */
    size_t min_size;       /* -b (or -s); valid when sizes_given */
    size_t max_size;       /* -e (or -s) */
    size_t factor;         /* -f: multiply the size by this each step (default 2) */
    size_t step;           /* -i: add this to the size each step instead (0: -f's rule) */
    int sizes_given;       /* 1 when -b, -e, -s or -a was given; else the suite's defaults */
    long iterations;       /* -n: timed units per size; 0 = default (see vsym_bench_measure) */
    long warmup;           /* -w: untimed units first; -1 = default */
    double duration_s;     /* -D: seconds per size instead of a count; 0 = use iterations */
    int modes;             /* VSYM_BENCH_LAT | VSYM_BENCH_BW (--mode lat|bw|both) */
    int check;             /* --check: validate data at the target */
    int pairs;             /* --pairs: every rank pair in turn, not only 0 and 1 */
    const char *json_path; /* --json FILE (JSON lines; "-" = stdout) */
    int json_append;       /* --append: keep the lines FILE already has */
    int csv;               /* --csv: CSV instead of aligned columns on stdout */
    int quiet;             /* --quiet: no table on stdout */
    int window;            /* --window N: non-blocking ops per window in bw mode (default 64) */
    const char *op;        /* --op NAME: a suite-defined operation filter (atomic: fetch-add) */
    const char *dtype;     /* --dtype NAME: a suite-defined data type (collectives) */
    double timeout_s;      /* --timeout S: every wait for a peer (0: VSYM_TIMEOUT) */
    int test_corrupt;      /* hidden --test-corrupt: flip one byte so --check must fail */
    int touch;             /* collectives: --touch, every line of src stored before each call */
    int consume;           /* collectives: --consume, every line of dst loaded after each call */
    int send_symmetric;    /* copy: --send symmetric (send buffers on the symmetric heap) */
    int root;              /* broadcast: -r/--root R, the rank whose src every rank gets (0) */
    /* reshard suite: --model NAME | --model-file FILE, --from LAYOUT, --to LAYOUT,
     * --scale 1/N (NULL when not given) */
    const char *model;
    const char *model_file;
    const char *from;
    const char *to;
    const char *scale;
} vsym_bench_opts_t;

/* ---- Suites ------------------------------------------------------------------------------- */

typedef struct vsym_bench vsym_bench_t;

typedef struct vsym_bench_suite {
    const char *name;        /* "put": the command-line name */
    const char *help;        /* one line for --help */
    int min_ranks;           /* fewer ranks: exit 2 */
    int max_ranks;           /* more ranks: exit 2 (0: no limit) */
    size_t default_min_size; /* the sweep when no -b/-e/-s/-a is given */
    size_t default_max_size;
    int sizeless; /* 1: the size means nothing (barrier); one pass with size 0 */
    /* Optional (NULL): check suite-specific options (--op, --dtype) before anything starts;
     * return 0, or -1 with a one-line message in err. */
    int (*check_opts)(const vsym_bench_opts_t *opts, char *err, size_t errlen);
    /* Run the whole sweep. Return 0, a positive count of wrong values (exit 1), or a negative
     * vsym_status_t after a failure (exit 1; the driver prints vsym_error_detail()). */
    int (*run)(vsym_bench_t *b);
    /* Optional (NULL): check the options against the ranks and the sweep once both are known
     * (a size too small for one element per rank); return 0, or -1 with a one-line message in
     * err (rank 0 prints it; exit 2). */
    int (*check_run)(const vsym_bench_t *b, char *err, size_t errlen);
} vsym_bench_suite_t;

/* The suite table, generated from suites.def. */
extern const vsym_bench_suite_t *const vsym_bench_suites[];
extern const int vsym_bench_suite_count;

/* ---- The running benchmark ---------------------------------------------------------------- */

struct vsym_bench {
    const vsym_bench_opts_t *opts;
    const vsym_bench_suite_t *suite;
    vsym_ctx_t *ctx;
    vsym_team_t *world;
    int rank; /* world rank */
    int nranks;
    int nnodes;
    /* The pair being measured (vsym_bench_pair_*): pair_a initiates, pair_b is the target;
     * in_pair is 1 on those two ranks; peer is the other one of the pair (or -1). */
    int pair_a, pair_b, in_pair, peer;
    double clock_ns;               /* the cost of one vsym_util_time_ns() call, measured at start */
    double core_rtt_ns; /* vsym_bench_core_rtt()'s last figure on rank 0 (-1: not measured) */
    uint64_t rtt_seq;   /* its round trips so far (ranks 0 and 1) */
    /* /proc/stat's steal and total ticks at the bench's start (vsym_util_cpu_steal_ticks; steal0
     * UINT64_MAX where it has none): each record's "steal_pct" counts from there */
    uint64_t steal0, total0;
    vsym_obj_t *sync_obj;          /* a small object whose signal pad vsym_bench_pair_sync() uses */
    json_t *config;                /* the effective configuration (every rank has it) */
    vsym_bench_results_t *results; /* rank 0 with --json, else NULL */
    size_t *sizes;                 /* the size sweep (see below) */
    int nsizes;
    size_t max_size;
    long wrong;          /* wrong values seen by vsym_bench_report() so far */
    char table_key[160]; /* the table whose header was printed last */
    int table_ncols;
    /* --pairs on rank 0: every reported pair measurement, for vsym_bench_pairs_summary() */
    struct vsym_bench_pair_result *pair_log;
    size_t pair_log_n, pair_log_cap;
};

/* The round trip of a cache line between the cores of ranks 0 and 1 (ns, the median of 100 after
 * 10 untimed), into b->core_rtt_ns on rank 0, which vsym_bench_record_new() records with each
 * result as "core_rtt_ns". A machine whose cores lie on different dies (or a VM whose vCPUs move
 * between them) pays that for every line a rank writes that a peer read last: on the 2-core AMD
 * guest it swings between about 50-90 ns and 340-470 ns within minutes, and copies through a
 * collective's scratch take up to 5x longer in the slow state. Every rank calls it at the same
 * point; where every rank has a core of its own, ranks 0 and 1 take part (when they reach each
 * other by load and store, else -1); where ranks share cores, two threads of rank 0 pinned to the
 * first two CPUs it may run on (the state of the machine's cores; -1 with one CPU). Bounded: 1 s
 * without progress gives -1. */
void vsym_bench_core_rtt(vsym_bench_t *b);

/* The share (%) of this node's CPU time that its hypervisor took away (steal time) from the
 * bench's start to now, or -1 where /proc/stat has no steal column or no tick has passed.
 * vsym_bench_record_new() records it with each result as "steal_pct" (0 on a machine of its own;
 * on the 2-core Zen 5 guest of 2026-12-01 23% of the CPU time in its first minutes, about 6% over
 * the next hour). */
double vsym_bench_steal_pct(const vsym_bench_t *b);

/* ---- Sizes and pairs ---------------------------------------------------------------------- */

/* The size sweep is computed by the driver into b->sizes[0 .. b->nsizes-1]: -b .. -e
 * multiplied by -f each step (-a: 2 B .. 8 MiB), -s one size, else the suite's defaults; a
 * sizeless suite has the one size 0. b->max_size is the largest (for buffer allocation). */

/* The pairs to measure: (0,1) only, or with --pairs every (a,b), a < b, in turn. Sets pair_a,
 * pair_b, in_pair and peer. */
void vsym_bench_pair_first(vsym_bench_t *b);
int vsym_bench_pair_valid(const vsym_bench_t *b);
void vsym_bench_pair_next(vsym_bench_t *b);

/* With --pairs, after the suite: on rank 0, per measurement (op, mode, size), the pairs that
 * are outliers by ClusterKit's rule (latency over 2.1x the best pair's, or bandwidth under 93%
 * of the best pair's), printed under the tables and written as one record of mode "pairs" per
 * measurement (results/README.md). Returns the number of outlier pairs. */
long vsym_bench_pairs_summary(vsym_bench_t *b);

/* Synchronise the two ranks of the current pair (a signal each way on sync_obj's pad). Only the
 * pair's ranks call it. Returns VSYM_OK or a status (timeout naming the peer). */
vsym_status_t vsym_bench_pair_sync(vsym_bench_t *b);

/* ---- Measurement -------------------------------------------------------------------------- */

/* One unit of timed work (one op, one ping-pong, one window of non-blocking ops + quiet).
 * i counts units from 0. Returns VSYM_OK or a status. */
typedef vsym_status_t (*vsym_bench_unit_fn)(void *arg, long i);

typedef struct vsym_bench_timing {
    vsym_bench_unit_fn unit; /* the work */
    void *arg;
    double bytes_per_unit; /* payload bytes one unit moves (bandwidth) */
    double ops_per_unit;   /* operations in one unit (message rate) */
    double lat_divisor;    /* latency = unit time / this (2 for a ping-pong: half the round
                            * trip; the window size for a window; 1 for one blocking op) */
    long iterations;       /* 0: -n or -D as given; else exactly this many timed units (for
                            * collective suites, where every rank must run the same count:
                            * convert -D into a count on rank 0 and share it first) */
} vsym_bench_timing_t;

typedef struct vsym_bench_lat {
    double min, median, avg, p99, p999, max; /* microseconds */
} vsym_bench_lat_t;

typedef struct vsym_bench_stats {
    size_t size;          /* message size in bytes */
    long iterations;      /* timed units */
    long warmup;          /* untimed units */
    long batch;           /* units per clock reading (clock cost < 1% of a batch) */
    long window;          /* ops per window in bw mode, else 0 */
    vsym_bench_lat_t lat; /* per-op latency statistics over the batches */
    double bw_avg_gbs;    /* bytes / total time, GB/s = 1e9 B/s */
    double bw_peak_gbs;   /* best batch */
    double mops;          /* operations per microsecond over the whole run (Mops/s) */
    double seconds;       /* timed seconds */
    long wrong;           /* wrong values found by --check; -1 when not checked */
    int valid;            /* 1 when measured */
} vsym_bench_stats_t;

void vsym_bench_stats_init(vsym_bench_stats_t *st, size_t size);

/* Default timed units for a unit of `bytes` payload: -n when given, else 1000 capped so that a
 * size moves at most 1 GiB (at least 10). Warm-up: -w when given, else a tenth of that, at
 * least 5. */
long vsym_bench_default_iterations(const vsym_bench_t *b, double bytes_per_unit);
long vsym_bench_default_warmup(const vsym_bench_t *b, long iterations);

/* Run the warm-up, choose the batch from the clock cost and the warm-up's unit time, then time
 * batches for -n units (or -D seconds), and compute the statistics into *st (size, wrong kept).
 * Local to the calling rank: the peer must be doing its side (e.g. answering ping-pongs). */
vsym_status_t vsym_bench_measure(vsym_bench_t *b, const vsym_bench_timing_t *t,
                                 vsym_bench_stats_t *st);

/* Statistics from per-op latencies (ns each); sorts samples in place. */
void vsym_bench_lat_from_samples(double *samples_ns, size_t n, vsym_bench_lat_t *lat_p);

/* The effective bytes per window in bw mode: --window ops, but at most 64 MiB of payload. */
long vsym_bench_window(const vsym_bench_t *b, size_t size);

/* ---- Reporting ---------------------------------------------------------------------------- */

/* Collective over the world. Take rank `from`'s stats, print the standard row on rank 0
 * (latency columns for mode "lat", bandwidth columns for "bw"), write the JSON record (plus the
 * fields of `extra`, which is stolen; may be NULL). suite_op names the operation ("fetch-add");
 * NULL means the suite's name. Returns VSYM_OK or a status. */
vsym_status_t vsym_bench_report(vsym_bench_t *b, const char *op, const char *mode,
                                const vsym_bench_stats_t *st, int from, json_t *extra);

/* Tables for suites with their own columns (rank 0 prints; other ranks do nothing).
 * The header is printed when key (e.g. "allreduce/sum/float") differs from the last one. */
typedef struct vsym_bench_column {
    const char *name; /* "#bytes", "t_avg[us]", "algbw[GB/s]" */
    int width;        /* column width (ignored with --csv) */
    int decimals;     /* digits after the point */
} vsym_bench_column_t;

void vsym_bench_table_header(vsym_bench_t *b, const char *key, const char *title,
                             const vsym_bench_column_t *cols, int ncols);
void vsym_bench_table_row(vsym_bench_t *b, const vsym_bench_column_t *cols, int ncols,
                          const double *values);

/* A JSON record with schema, tool, suite, op, mode, size, date, pair and "config" set. The
 * caller adds its fields and passes it to vsym_bench_record_emit() (rank 0 only writes). */
json_t *vsym_bench_record_new(vsym_bench_t *b, const char *op, const char *mode, size_t size);
/* The statistics as JSON fields ("iterations", "lat_us": {...}, "bw_gbs": {...}, "mops"). */
void vsym_bench_record_add_stats(json_t *record, const vsym_bench_stats_t *st);
/* Write the record (rank 0 with --json) and release it. */
vsym_status_t vsym_bench_record_emit(vsym_bench_t *b, json_t *record);

/* ---- Data checks -------------------------------------------------------------------------- */

/* Fill buf with the check pattern of (size, seed), and count bytes differing from it. */
void vsym_bench_pattern_fill(void *buf, size_t len, uint64_t seed);
long vsym_bench_pattern_check(const void *buf, size_t len, uint64_t seed);

/* Share a count from one rank with every rank (collective over the world). */
vsym_status_t vsym_bench_share_long(vsym_bench_t *b, int from, long *value);
/* A suite's return value for wrong values counted by --check: 0 for none, else the count (at
 * most 1000000; main reports it and exits 1). */
int vsym_bench_wrong_rc(long wrong);

/* Share len bytes of buf from rank `from` with every rank: afterwards every rank's buf holds
 * from's bytes (collective over the world; e.g. a struct of results for rank 0 to print). */
vsym_status_t vsym_bench_share(vsym_bench_t *b, int from, void *buf, size_t len);

/* ---- Collective suites -------------------------------------------------------------------- */

/* Every rank of a collective must run the same number of units. This returns that number in
 * *iterations_p: -n (or the default for t->bytes_per_unit), or with -D the count rank 0
 * estimates by timing a few units of t (run on every rank), shared with all. Collective over
 * the world. Put the result in t->iterations before vsym_bench_measure(). */
vsym_status_t vsym_bench_collective_iterations(vsym_bench_t *b, const vsym_bench_timing_t *t,
                                               long *iterations_p);

/* A collective suite, sketched (see suite_atomic.c's barrier for a complete one):
 *
 *     static const vsym_bench_column_t cols[] = {
 *         {"#bytes", 10, 0}, {"time[us]", 11, 2}, {"algbw[GB/s]", 13, 2},
 *         {"busbw[GB/s]", 13, 2}, {"#wrong", 8, 0}};
 *     for (int k = 0; k < b->nsizes; k++) {
 *         vsym_bench_timing_t t = {unit_allreduce, &arg, size, 1, 1, 0};
 *         vsym_bench_collective_iterations(b, &t, &t.iterations);
 *         vsym_bench_stats_init(&st, size);
 *         vsym_bench_measure(b, &t, &st);            // every rank
 *         vsym_bench_share(b, 0, &st, sizeof(st));   // rank 0's numbers (or reduce first)
 *         double v[] = {size, st.lat.avg, algbw, busbw, wrong};
 *         vsym_bench_table_header(b, "allreduce/sum/float", "vsym-bench allreduce sum float",
 *                                 cols, 5);          // printed once per key, rank 0 only
 *         vsym_bench_table_row(b, cols, 5, v);       // rank 0 only; NAN prints "-"
 *         json_t *r = vsym_bench_record_new(b, "sum", "lat", size);
 *         vsym_bench_record_add_stats(r, &st);
 *         json_object_set_new(r, "busbw_gbs", json_real(busbw));
 *         vsym_bench_record_emit(b, r);              // rank 0 writes; every rank releases
 *     }
 */

#endif
