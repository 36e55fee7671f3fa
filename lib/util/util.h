/* Internal utilities: errors and logging, settings, clocks, waits, sizes, system facts.
 * Every module includes this header; none of it is exported. */
#ifndef VSYM_UTIL_H
#define VSYM_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <vsym/status.h>
#include <vsym/info.h>
#include "util/config_table.h"

/* ---- Logging ------------------------------------------------------------------------------ */

typedef enum vsym_log_level {
    VSYM_LOG_ERROR,
    VSYM_LOG_WARN,
    VSYM_LOG_INFO,
    VSYM_LOG_DEBUG,
    VSYM_LOG_TRACE,
} vsym_log_level_t;

extern int vsym_util_log_level; /* the level in force; checked before any formatting */

void vsym_util_log(vsym_log_level_t level, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define VSYM_LOG(level, ...)                                                                       \
    do {                                                                                           \
        if ((int)(level) <= vsym_util_log_level)                                                   \
            vsym_util_log((level), __FILE__, __LINE__, __VA_ARGS__);                               \
    } while (0)
#define vsym_error(...) VSYM_LOG(VSYM_LOG_ERROR, __VA_ARGS__)
#define vsym_warn(...) VSYM_LOG(VSYM_LOG_WARN, __VA_ARGS__)
#define vsym_info(...) VSYM_LOG(VSYM_LOG_INFO, __VA_ARGS__)
#define vsym_debug(...) VSYM_LOG(VSYM_LOG_DEBUG, __VA_ARGS__)
#define vsym_trace(...) VSYM_LOG(VSYM_LOG_TRACE, __VA_ARGS__)

/* The identity printed in every log line ("rank 3 host n12"); set by the core at init. */
void vsym_util_log_set_identity(int rank, const char *host);

/* Report an error where it is first detected: keep the detail for vsym_error_detail(), log it
 * once at error level, and return the status, so that callers write
 *     return VSYM_FAIL(VSYM_ERR_BAD_RANK, "put: rank %d outside team of %d", r, n);
 * Callers that pass a status up do not report it again. */
vsym_status_t vsym_util_fail(vsym_status_t status, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define VSYM_FAIL(status, ...) vsym_util_fail((status), __FILE__, __LINE__, __VA_ARGS__)

/* The same, without logging: for expected failures a caller handles itself (e.g. a probe). */
vsym_status_t vsym_util_fail_quiet(vsym_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- Settings ----------------------------------------------------------------------------- */

typedef enum vsym_config_id {
#define VSYM_CONFIG_ID_(id, type, def, allowed, help) VSYM_CFG_##id,
    VSYM_CONFIG_TABLE(VSYM_CONFIG_ID_)
#undef VSYM_CONFIG_ID_
        VSYM_CFG_COUNT
} vsym_config_id_t;

/* The value in force (environment, else default). Values were validated by
 * vsym_settings_check(); an invalid value reads as the default. */
long vsym_config_int(vsym_config_id_t id);
size_t vsym_config_size(vsym_config_id_t id);
double vsym_config_double(vsym_config_id_t id);
const char *vsym_config_str(vsym_config_id_t id); /* never NULL */
const char *vsym_config_name(vsym_config_id_t id);
/* How many times the values in force were loaded (vsym_settings_check reloads them): a caller
 * that keeps something derived from a setting keeps this with it, and derives it anew when it
 * changes. */
unsigned long vsym_config_generation(void);

/* ---- Sizes -------------------------------------------------------------------------------- */

/* Parse "4096", "4K", "1M", "1G", "2T" (binary multiples; "k"/"KiB"/"KB" accepted) into bytes.
 * The one size parser of the project: every tool uses it. VSYM_ERR_BAD_SIZE on garbage,
 * negative numbers or overflow. */
vsym_status_t vsym_util_parse_size(const char *text, size_t *size_p);

/* Format bytes as "4K", "1M", "1.5G", or "123" into buf. */
const char *vsym_util_format_size(size_t bytes, char *buf, size_t len);

/* ---- Clocks and waits --------------------------------------------------------------------- */

/* Nanoseconds of CLOCK_MONOTONIC_RAW: the one timer of the project. */
static inline uint64_t vsym_util_time_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Return the status of expr from the calling function when it is not VSYM_OK. */
#define VSYM_TRY(expr)                                                                             \
    do {                                                                                           \
        vsym_status_t st_ = (expr);                                                                \
        if (st_ != VSYM_OK) return st_;                                                            \
    } while (0)

/* The median of n numbers (of interleaved timing rounds; the mean of the middle two when n is
 * even); v is sorted in place. 0 when n < 1. */
static inline double vsym_util_median(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    if (n < 1) return 0;
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Timeout in seconds as passed by a user: <= 0 means VSYM_TIMEOUT. Returns nanoseconds. */
uint64_t vsym_util_timeout_ns(double timeout_s);

/* A wait that spins briefly, then yields, then sleeps with growing intervals (up to 1 ms), so
 * that oversubscribed ranks let the rank they wait for run.
 *     vsym_backoff_t b; vsym_backoff_init(&b, timeout_s);
 *     while (!ready()) if (!vsym_backoff_step(&b)) return VSYM_FAIL(VSYM_ERR_TIMED_OUT, ...);
 */
typedef struct vsym_backoff {
    uint64_t deadline_ns; /* the timeout itself until the clock starts (start_ns 0) */
    uint64_t start_ns;    /* the first check's time; 0 before it */
    uint32_t polls;
    uint32_t spin_limit;
    uint32_t yield_limit;
    uint32_t sleep_ns;
} vsym_backoff_t;

void vsym_backoff_init(vsym_backoff_t *b, double timeout_s);
/* The same for a wait on a device (a NIC's completion queue), not on a rank: with a core per rank
 * and VSYM_SPIN_COUNT auto it polls without yielding until the deadline, as perftest's client
 * does (in the Soft-RoCE VM a yielding initiator left 64 KiB windows at 0.80x ib_write_bw and
 * 0.81x ib_read_bw, medians of 19 rounds; polling, 0.93x and 0.92x). With more ranks than cores
 * it is vsym_backoff_init: another rank may need the core. */
void vsym_backoff_init_device(vsym_backoff_t *b, double timeout_s);
/* One step of waiting; false when the deadline has passed. */
int vsym_backoff_step(vsym_backoff_t *b);
/* Seconds waited so far. */
double vsym_backoff_elapsed(const vsym_backoff_t *b);

/* The CPU's model name from /proc/cpuinfo ("unknown" when it has none). */
void vsym_util_cpu_model(char *buf, size_t len);
/* 1 on an AMD x86-64 CPU (the collectives' rules that differ by vendor). */
int vsym_util_cpu_amd(void);
/* Tests: -1 (the default) asks the CPU; 0 or 1 makes vsym_util_cpu_amd() say so (the rules of
 * AMD CPUs tested on others). */
void vsym_util_cpu_amd_force(int yes);
/* The x86 CPU family (cpuid leaf 1 with its extended family: 25 for AMD's Zen 3 and 4, 26 for
 * Zen 5, 6 for Intel's cores), 0 on other architectures. */
int vsym_util_cpu_family(void);
/* Tests: -1 (the default) asks the CPU; else vsym_util_cpu_family() says family. */
void vsym_util_cpu_family_force(int family);
/* 1 where the rules that stream a writer's copies with the cores near apply: AMD CPUs of family
 * 25 and before, where they were measured (stops 30-36: the publishes of 16-128 KiB with a core
 * per rank, VSYM_COLL_STREAM_MIN auto's broadcast and all-gather); on the Zen 5 guest (family
 * 26) they made every collective they touch slower near and no faster far (stop 57). */
int vsym_util_amd_streams_near(void);

/* 1 on a CPU emulated by qemu's TCG (hypervisor CPUID leaf "TCGTCGTCGTCG", or "TCG" in the model
 * name): pauses enter qemu's main loop, and 16-byte vector accesses may be split in two. */
int vsym_util_emulated_cpu(void);
/* Settle the wait policy at init: how many ranks share this node's cores, and VSYM_SPIN_PAUSE. */
void vsym_util_wait_policy_init(int ranks);
/* 1 when this machine has a core for every rank on it (then the rank waited for is running). */
int vsym_util_core_per_rank(void);
/* Tests: -1 (the default) counts the cores; 0 or 1 makes vsym_util_core_per_rank() say so. */
void vsym_util_core_per_rank_force(int yes);
/* A cache line's round trip in ns between the calling thread's CPU and the next CPU this
 * process may run on (the machine's next where it may run on one), timed against a helper thread
 * pinned there (created and joined here, every signal blocked in it): the median of those of 8
 * rounds in which the caller stayed on its CPU and the helper answered from the other, under 5 us
 * each (the shortest of them read 250-270 ns far on the 2-core AMD guest, where most took
 * 400-600). 0 where none counted: one CPU, no thread, or the helper not running within 1 ms (its
 * CPU busy). Costs 0.1-0.3 ms on the 2-core
 * AMD guest, mostly the helper's start on the other CPU. */
uint64_t vsym_util_thread_line_rtt(void);
/* The same with limit_ns in place of 1 ms (tests: on the 2-core Zen 5 guest of 2026-12-01, a
 * Firecracker guest without halt polling, a helper pinned to the other, idle vCPU started 0.03-17
 * ms after its creation and answered its first ping after 0.06-33 ms). */
uint64_t vsym_util_thread_line_rtt_within(uint64_t limit_ns);
/* Tests: the limit vsym_util_thread_line_rtt() allows (UINT64_MAX, the default, for 1 ms; 0 makes
 * every probe fail as one whose helper did not run in time). */
void vsym_util_thread_line_rtt_force(uint64_t limit_ns);
/* This machine's CPU time so far in /proc/stat's ticks, all CPUs together: *total (user, nice,
 * system, idle, iowait, irq, softirq, steal) and *steal (what the hypervisor ran elsewhere while
 * this guest's vCPUs wanted to run). 0, or -1 where /proc/stat has no steal column. */
int vsym_util_cpu_steal_ticks(uint64_t *steal, uint64_t *total);
/* A line round trip's longest time that counts (ns): longer rounds went through the scheduler
 * (the thread probe's and the collectives' rank-to-rank one alike). */
#define VSYM_UTIL_RTT_VALID_NS 5000

/* One poll of a spin loop: x86's pause (it spares the pipeline's memory-order flush when the
 * word changes, and a sibling hardware thread's share of the core), except where
 * VSYM_SPIN_PAUSE turns it off (auto: off on a CPU emulated by qemu TCG, where every pause
 * leaves the translated code for qemu's main loop and its lock). */
extern int vsym_util_spin_pause;
static inline void vsym_util_spin_hint(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (vsym_util_spin_pause) __builtin_ia32_pause();
#endif
}

/* ---- Memory copies ------------------------------------------------------------------------ */

/* Copy for shared-memory transfers (a put, a get): memcpy, or non-temporal stores (which avoid
 * reading the destination's cache lines first) where vsym_util_copy_single_streams(len). */
void vsym_util_copy(void *dst, const void *src, size_t len);
/* Whether a single copy of len bytes streams: from vsym_util_nt_single_threshold(), which is
 * vsym_util_nt_threshold() but under VSYM_NT_THRESHOLD auto 48 MiB at most (a cache described
 * larger is not one copy's); 0: never. */
int vsym_util_copy_single_streams(size_t len);
size_t vsym_util_nt_single_threshold(void);
/* A piece of len bytes of a copy of whole bytes made piece by piece (e.g. from a block just
 * computed in cache): non-temporal stores when the whole is at least vsym_util_nt_threshold(). */
void vsym_util_copy_part(void *dst, const void *src, size_t len, size_t whole);
/* For the many short pieces of one large copy (rows): whether a copy of whole bytes streams
 * (non-temporal stores, from vsym_util_nt_threshold()), decided once; a streaming copy of one
 * piece without the store fence, and the fence, which must come after the last piece and before
 * any store or signal that tells a reader the data is there. */
int vsym_util_copy_streams(size_t whole);
void vsym_util_copy_stream(void *dst, const void *src, size_t len);
void vsym_util_copy_fence(void);
/* Copy what a rank publishes for peers on other cores to read (its collective scratch) from
 * src, where those peers read the previous data (their caches hold the lines). Where such lines
 * are far away (this 2-core VM's vCPUs on different dies at times: a line's round trip between
 * the cores 340-470 ns instead of 50-90), each ordinary store waits for one: 64 KiB in 28 us,
 * in 2 us with non-temporal stores, which do not wait. So from 8 KiB, on AMD CPUs,
 * VSYM_PUBLISH_STREAM auto times the first 4 KiB of one such copy in 16 and streams that copy's
 * rest and the next 15 copies when it took 1 us or more (timing every copy cost 0.2-0.4 us a call
 * at 8 KiB). Returns 1 when the copy streamed (fenced: visible before any later store). */
int vsym_util_copy_publish(void *dst, const void *src, size_t len);
/* For other stores of len bytes into such memory (a reduction's results): 1 where they should
 * stream, by VSYM_PUBLISH_STREAM (on: always; auto: from 8 KiB where this process's last timed
 * copy found the lines far, or the team's record below did). */
int vsym_util_publish_streams(size_t len);
/* Tests: -1 (the default) times the probe; 0 or 1 makes every probe find the lines near or far. */
void vsym_util_publish_probe_force(int far);
/* A caller's use of a buffer, for the timings that model it (the benchmarks' --touch and
 * --consume, the fused autotune): a store into every line of len bytes at p (the same bytes
 * back), as data computed anew leaves them (modified in this core's cache, gone from the peers'
 * that read them), and a load of every line, as a reader of a result does (lines a peer stored
 * come from its cache). One call per buffer: a call between the stores queues them behind each
 * line's miss (4-6x slower where peers held the lines; results/coll/device-16core-2026-11-29-
 * stop53). */
void vsym_util_store_lines(void *p, size_t len);
void vsym_util_load_lines(const void *p, size_t len);
/* 1 where VSYM_PUBLISH_STREAM auto decides (auto, on an AMD CPU). */
int vsym_util_publish_auto(void);
/* 1 where VSYM_PUBLISH_STREAM is on, or auto decides and the team's record (below) holds a line
 * round trip over 250 ns: the cores far. */
int vsym_util_publish_far(void);
/* 1 where a line's round trip of ns between two cores says they lie far (over 250 ns). */
int vsym_util_rtt_far(uint64_t ns);
/* The node's record of the last far probe (NULL: none, the default): two words in memory every
 * rank of the node maps (a collective handle's scratch). A probe that finds the lines far, after
 * one that did too, stores its time in word[0]; one that finds them near streams all the same
 * while that is under 5 ms old, or while word[1], the last round trip of a line between two of
 * the team's cores in ns (the collectives time it; 0 none), is over 250 ns. Where ranks share cores
 * a rank whose reader runs on its own core finds its lines near while the other core's are far (the
 * 4-rank all-reduce's ring, the cores far: two ranks' probes 0-2 % slow, the other two's 65-70 %),
 * and streaming every publish ran 2x faster there (results/coll/dev-2core-zen4-2026-11-27-stop37).
 */
void vsym_util_publish_share(uint64_t *word);
/* 1 where the non-temporal copies store 64 bytes at a time (AVX-512, other CPUs than AMD's; AMD's
 * keep 16-byte stores with the source prefetched); tests: vsym_util_copy_wide_force(-1) asks the
 * CPU, 0 or 1 makes it say so (1 only where the CPU has AVX-512F). */
int vsym_util_copy_wide(void);
void vsym_util_copy_wide_force(int yes);
/* VSYM_NT_THRESHOLD in force, "auto" resolved (half the last-level cache, 16 MiB where sysfs
 * describes none); 0: never. */
size_t vsym_util_nt_threshold(void);
/* Tests: read the caches from this folder instead of /sys/devices/system/cpu (NULL: that one
 * again), and resolve auto anew. */
void vsym_util_sysfs_cpu_force(const char *root);

#endif
