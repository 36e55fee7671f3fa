/* The copy routine of the shared-memory path. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include "util/util.h"

/* Other CPUs than AMD's with AVX-512 stream 64 bytes a store. 2-core Intel guest (family 6 model
 * 167), memcpy-bench, 64 MiB: 13.4 GB/s alone and 10.6 with the other core copying too, against
 * 12.1 and 9.5 for 16-byte streaming stores and 9.5 and 6.9 for glibc's memcpy (32 MiB loaded:
 * 14.0, 13.1, 11.7). Through the library, the 16-byte loop against this one, launches taking turns:
 * a put of 64 MiB 11.3 / 9.6 -> 13.6 / 13.7 GB/s; 2 ranks at 64 MiB out of place, medians of three,
 * the all-gather 1.14x (symmetric buffers 1.55x), the all-reduce 1.04x (1.10x), the broadcast 1.10x
 * (1.07x), the all-to-all 1.02x (1.31x), the reduce-scatter 0.95-1.01x (six: noise); 4 ranks
 * 1.01-1.47x out of place but for the symmetric all-reduce (0.98-0.99x), 0.93-1.09x in place
 * (results/coll/dev-2core-intel-2026-12-02-stop61). */
static int copy_wide_forced = -1; /* vsym_util_copy_wide_force */

void vsym_util_copy_wide_force(int yes)
{
    __atomic_store_n(&copy_wide_forced, yes < 0 ? -1 : !!yes, __ATOMIC_RELAXED);
}

int vsym_util_copy_wide(void)
{
#if defined(__x86_64__)
    const int forced = __atomic_load_n(&copy_wide_forced, __ATOMIC_RELAXED);
    const int avx512 = __builtin_cpu_supports("avx512f") != 0;
    return forced >= 0 ? forced && avx512 : avx512 && !vsym_util_cpu_amd();
#else
    return 0;
#endif
}

#if defined(__x86_64__)
/* The 256-byte steps of a non-temporal copy with 64-byte stores to *dp (aligned to 64); returns
 * the bytes left (under 256), *dp and *sp moved past what it copied. */
__attribute__((target("avx512f"))) static size_t copy_nt_wide(char **dp, const char **sp,
                                                              size_t len)
{
    char *d = *dp;
    const char *s = *sp;
    for (; len >= 256; d += 256, s += 256, len -= 256) {
        __m512i v[4];
        for (int k = 0; k < 4; k++)
            v[k] = _mm512_loadu_si512((const void *)(s + 64 * k));
        for (int k = 0; k < 4; k++)
            _mm512_stream_si512((void *)(d + 64 * k), v[k]);
    }
    *dp = d;
    *sp = s;
    return len;
}

/* Non-temporal stores write whole lines to memory without first reading them into the cache
 * (no read-for-ownership), which saves a third of the memory traffic of a large copy. They are
 * weakly ordered: the sfence makes them visible before any later store (e.g. a signal). */
static void copy_nt(void *dst, const void *src, size_t len, int fence)
{
    char *d = dst;
    const char *s = src;
    const int wide = vsym_util_copy_wide();
    const uintptr_t align = wide ? 64 : 16; /* the stores' width */
    size_t head = (align - ((uintptr_t)d & (align - 1))) & (align - 1);
    if (head > len) head = len;
    memcpy(d, s, head);
    d += head;
    s += head;
    len -= head;
    /* Two lines per step, on AMD CPUs the source fetched ten lines ahead without polluting the
     * cache (prefetchnta): on the 2-core AMD machine 12.4 GB/s for 64 MiB against 10.5 for glibc's
     * memcpy (itself non-temporal at that size) and 10.3 for the same loop without prefetch. Not
     * on Intel's: on the 2-core Intel guest of stop 50 (Xeon, family 6 model 167) the prefetch
     * made the loop 2.3x slower, 5.5 GB/s at 4-32 MiB against 13.2-13.8 without it (or with
     * prefetcht0) and 14.1-14.3 for glibc's memcpy; at 64 MiB 4.9 against 8.6, memcpy 7.3
     * (results/coll/dev-2core-intel-2026-11-29-stop50). */
    if (wide) len = copy_nt_wide(&d, &s, len);
    const int ahead = vsym_util_cpu_amd();
    while (len >= 128) {
        if (ahead) {
            __builtin_prefetch(s + 640, 0, 0);
            __builtin_prefetch(s + 704, 0, 0);
        }
        __m128i v[8];
        for (int k = 0; k < 8; k++)
            v[k] = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * k));
        for (int k = 0; k < 8; k++)
            _mm_stream_si128((__m128i *)(void *)(d + 16 * k), v[k]);
        d += 128;
        s += 128;
        len -= 128;
    }
    if (fence) _mm_sfence();
    memcpy(d, s, len);
}
#endif

/* Where sysfs describes no cache (the Zen 5 guest of stop 40; its CPUID reports a 508 MiB L3,
 * the whole package's), the half of a 32 MiB last-level cache, what the Zen 4 guest before it
 * described: without it nothing streamed there, and 2 ranks' all-reduce of 16 MiB from symmetric
 * buffers took 826 us against 412-446 with 4-16 MiB (results/coll/dev-2core-zen5-2026-11-28-
 * stop40). */
#define NT_FALLBACK ((size_t)16 << 20)

/* The most of a last-level cache counted for each CPU that sysfs says shares it. A hypervisor
 * may describe the host's whole cache to a small guest: the 2-vCPU Intel guest of stop 50 read a
 * 480 MiB L3 shared by its 2 CPUs (a threshold of 240 MiB, so nothing streamed), where its copies
 * left the cache between 64 and 128 MiB of source and destination together (memcpy of 32 MiB
 * 14.1 GB/s, of 64 MiB 7.3; non-temporal 13.2 and 8.5). Between 2 ranks a threshold of 32 MiB
 * (streaming from 64 MiB of src and dst together) made the out-of-place all-reduce, all-gather,
 * reduce-scatter and broadcast of 32-64 MiB 1.05-1.78x faster, but the all-to-all of 16 MiB 1.13x
 * slower; 48 MiB, from 96 MiB together, keeps the gains (results/coll/dev-2core-intel-2026-11-29-
 * stop50). No CPU has near this much for each core (the largest, AMD's with stacked cache, 12
 * MiB), so the rule leaves real machines' caches as sysfs gives them. */
#define LLC_PER_CPU_MAX ((size_t)48 << 20)

/* The CPUs of a sysfs CPU list ("0-3,8,10-11"), 0 where the text is not one. */
static size_t cpu_list_count(const char *text)
{
    size_t n = 0;
    const char *p = text;
    while (*p != '\0' && *p != '\n') {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (end == p) return 0;
        p = end;
        if (*p == '-') {
            b = strtoul(p + 1, &end, 10);
            if (end == p + 1 || b < a) return 0;
            p = end;
        }
        n += b - a + 1;
        if (*p == ',') p++;
    }
    return n;
}

/* Half the last-level cache of the CPU this thread runs on (sysfs; NT_FALLBACK when it has none),
 * at most LLC_PER_CPU_MAX for each CPU sharing it where sysfs lists them. A copy of that size and
 * its source together fill the cache: beyond it, ordinary stores evict what they wrote and cost a
 * read of every destination line first. (glibc sizes its own switch from CPUID, which a
 * hypervisor may report larger than the cache the guest really has.) */
static const char *sysfs_cpu = "/sys/devices/system/cpu"; /* vsym_util_sysfs_cpu_force */
static size_t nt_resolved = SIZE_MAX; /* vsym_util_nt_threshold's auto: SIZE_MAX not yet */

void vsym_util_sysfs_cpu_force(const char *root)
{
    sysfs_cpu = root != NULL ? root : "/sys/devices/system/cpu";
    __atomic_store_n(&nt_resolved, SIZE_MAX, __ATOMIC_RELAXED);
}

static size_t last_level_half(void)
{
    int cpu = sched_getcpu();
    size_t best = 0;
    int best_level = 0;
    for (int index = 0; index < 8; index++) {
        char path[512], text[32];
        snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/level", sysfs_cpu, cpu < 0 ? 0 : cpu,
                 index);
        FILE *f = fopen(path, "r");
        if (f == NULL) break;
        int level = fgets(text, sizeof(text), f) ? atoi(text) : 0;
        fclose(f);
        snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/size", sysfs_cpu, cpu < 0 ? 0 : cpu,
                 index);
        f = fopen(path, "r");
        if (f == NULL) continue;
        size_t size = 0;
        if (fgets(text, sizeof(text), f) != NULL) {
            text[strcspn(text, "\n")] = '\0';
            if (vsym_util_parse_size(text, &size) != VSYM_OK) size = 0;
        }
        fclose(f);
        if (level > best_level && size > 0) {
            best_level = level;
            best = size;
            snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/shared_cpu_list", sysfs_cpu,
                     cpu < 0 ? 0 : cpu, index);
            f = fopen(path, "r");
            if (f == NULL) continue;
            char list[4096];
            const size_t sharing = fgets(list, sizeof(list), f) ? cpu_list_count(list) : 0;
            fclose(f);
            if (sharing > 0 && best / sharing > LLC_PER_CPU_MAX) best = sharing * LLC_PER_CPU_MAX;
        }
    }
    return best > 0 ? best / 2 : NT_FALLBACK;
}

/* VSYM_NT_THRESHOLD auto, resolved once per process (nt_resolved). */
static size_t nt_auto(void)
{
    size_t r = __atomic_load_n(&nt_resolved, __ATOMIC_RELAXED);
    if (r == SIZE_MAX) {
        r = last_level_half();
        __atomic_store_n(&nt_resolved, r, __ATOMIC_RELAXED);
    }
    return r;
}

size_t vsym_util_nt_threshold(void)
{
    size_t threshold = vsym_config_size(VSYM_CFG_NT_THRESHOLD);
    return threshold != SIZE_MAX ? threshold : nt_auto();
}

/* Whether a copy of len bytes streams under threshold (0: never; only on x86-64). */
static int streams_from(size_t threshold, size_t len)
{
#if defined(__x86_64__)
    return threshold != 0 && len >= threshold;
#else
    (void)threshold;
    (void)len;
    return 0;
#endif
}

int vsym_util_copy_streams(size_t whole)
{
    return streams_from(vsym_util_nt_threshold(), whole);
}

void vsym_util_copy_stream(void *dst, const void *src, size_t len)
{
#if defined(__x86_64__)
    copy_nt(dst, src, len, 0);
#else
    memcpy(dst, src, len);
#endif
}

void vsym_util_copy_fence(void)
{
#if defined(__x86_64__)
    _mm_sfence();
#endif
}

void vsym_util_copy_part(void *dst, const void *src, size_t len, size_t whole)
{
#if defined(__x86_64__)
    if (vsym_util_copy_streams(whole)) {
        copy_nt(dst, src, len, 1);
        return;
    }
#else
    (void)whole;
#endif
    memcpy(dst, src, len);
}

/* A single copy (a put or a get over shared memory) streams from 48 MiB at most under
 * VSYM_NT_THRESHOLD auto: a cache described larger does not keep that much of one copy. The 16-core
 * Intel guest's sysfs describes a 300 MiB L3 shared by its 16 CPUs (auto: 150 MiB), yet a copy left
 * it between 32 and 64 MiB (memcpy-bench alone: memcpy 13.1 -> 7.5 GB/s, 64-byte streaming
 * stores 16.0 -> 15.5); three rounds taking turns with auto and 48M, 2 ranks with a core each: a
 * put of 64 MiB 8.8-12.6 -> 17.3-19.6 GB/s. The collectives keep the threshold: a team's copies
 * together exceed it (8 ranks there, 48M: the all-to-all, broadcast and reduce-scatter of 16-64 MiB
 * 0.70-0.96 of auto's speed; results/coll/device-16core-2026-12-02-stop61, run 2). */
#define SINGLE_MAX LLC_PER_CPU_MAX

size_t vsym_util_nt_single_threshold(void)
{
    /* one read of the setting: every put and get over shared memory asks */
    size_t threshold = vsym_config_size(VSYM_CFG_NT_THRESHOLD);
    if (threshold != SIZE_MAX) return threshold;
    threshold = nt_auto();
    return threshold < SINGLE_MAX ? threshold : SINGLE_MAX;
}

int vsym_util_copy_single_streams(size_t len)
{
    return streams_from(vsym_util_nt_single_threshold(), len);
}

void vsym_util_copy(void *dst, const void *src, size_t len)
{
#if defined(__x86_64__)
    if (vsym_util_copy_single_streams(len)) {
        copy_nt(dst, src, len, 1);
        return;
    }
#endif
    memcpy(dst, src, len);
}

/* ---- Copies a peer on another core reads next ---------------------------------------------- */

#define PUBLISH_MIN 8192     /* smaller copies: ordinary stores (or VSYM_NT_THRESHOLD's) */
#define PUBLISH_PROBE 4096   /* the timed head of an auto copy */
#define PUBLISH_SLOW_NS 1000 /* the head's time from which the rest streams */
#define PUBLISH_EVERY 16     /* auto: one copy in this many is timed */
/* auto: copies of this many bytes stream whatever the probe says (near cores too; publish_near) */
#define PUBLISH_NEAR_MIN 16384
#define PUBLISH_NEAR_MAX 131072

/* The last auto probe's verdict in this process: 1 the lines were far (it streamed). */
static int publish_last_slow;
static int publish_forced = -1; /* vsym_util_publish_probe_force */
static uint64_t *publish_word;  /* vsym_util_publish_share */
#define PUBLISH_SHARED_NS 5000000
/* A line's round trip between two cores from which they count as far (near: 100-150 ns on the
 * 2-core AMD hosts, far 400-900; the bench's core_rtt_ns marks rows far from the same value). */
#define PUBLISH_FAR_RTT_NS 250

int vsym_util_rtt_far(uint64_t ns)
{
    return ns > PUBLISH_FAR_RTT_NS;
}

/* The team's record (word) says its cores are far: their last round trip over the limit. */
static int team_far(const uint64_t *word)
{
    return word != NULL && vsym_util_rtt_far(__atomic_load_n(word + 1, __ATOMIC_RELAXED));
}

void vsym_util_publish_share(uint64_t *word)
{
    publish_word = word;
}

void vsym_util_publish_probe_force(int far)
{
    __atomic_store_n(&publish_forced, far, __ATOMIC_RELAXED);
    if (far >= 0) __atomic_store_n(&publish_last_slow, far, __ATOMIC_RELAXED);
}

/* VSYM_PUBLISH_STREAM: 0 auto, 1 on, 2 off (the setting's values, checked when read). auto
 * streams on AMD CPUs only. Where ranks share cores the probe tells the states apart as well: 4
 * ranks on the 2-core AMD host, its 4 KiB took under 500 ns in 82-100 % of a rank's probes with
 * the CPUs near (1 us or more in at most 2 %) and 1 us or more in 84-94 % with them far; launches
 * taking turns with auto and off, the state read before and after each: near 0.93-1.14 of off's
 * time through the scratch (noise: the symmetric rows, which publish nothing, 0.84-1.35), far
 * 0.46-0.94 for the all-reduce (8 MiB 8.6-11.9 -> 4.9-5.5 ms), 0.10-0.57 for the reduce-scatter and
 * 0.07-0.72 for the all-to-all (results/coll/dev-2core-zen4-2026-11-27-stop37; streaming every
 * publish, as on does, made the all-reduce of 1-16 MiB 1.4-1.6x slower near). With the team's
 * shared record (vsym_util_publish_share) the all-reduce far took on's time: 0.29-0.50 of off's. On
 * the 16-core Intel guest (its L3 shared by every core: no far lines to avoid) the probe found 8-16
 * readers' lines slow too, and streaming made the all-gather 1.24-1.48x and the 1-4 MiB
 * broadcast 1.36-1.56x slower at 8 ranks (results/coll/device-16core-2026-11-27-stop35). */
static int publish_mode(void)
{
    const char *v = vsym_config_str(VSYM_CFG_PUBLISH_STREAM);
    int m = v[0] == 'a' ? 0 : v[1] == 'n' ? 1 : 2;
    return m == 0 && !vsym_util_cpu_amd() ? 2 : m;
}

/* auto: a copy of len bytes streams with the cores near too, where every rank has a core, on
 * AMD CPUs of family 25 (vsym_util_amd_streams_near). 2-core AMD host (Zen 4), 2 ranks, the cores
 * near, five launches each taking turns, every publish streamed against auto (then only while
 * far): 0.57-0.99 of the time for the collectives whose copies were 16-128 KiB (the all-reduce 128
 * KiB 26.4-27.5 -> 20.0-21.4 us, the reduce-scatter 128 KiB 15.2 -> 8.8), 1.3-2.3x at 8 KiB,
 * 0.68-2.2x from 256 KiB, most above 1 (results/coll/dev-2core-zen4-2026-11-27-stop36): a reader
 * pulls lines another core holds modified at 5-7 GB/s, from memory faster, while the whole copy
 * stays in the caches. At 4 ranks on the 2 cores streaming every publish gained nothing outside
 * the all-gather (stop 36). On the Zen 5 guest (family 26; 2 ranks, the benchmarks' buffers
 * written since stop 52, launches taking turns, each state by the bench's line round trip) the
 * same rule made every collective 1.6-2.9x slower at 16-256 KiB near (all-reduce 256 KiB 24.3 ->
 * 12.0 us without it; 130 launches each, medians; the all-gather, reduce-scatter, all-to-all and
 * broadcast alike) and changed nothing far (0.96-1.03, 15-19 launches each: the probe and the
 * team's record stream there) (results/coll/dev-2core-zen5-2026-12-02-stop57). */
static int publish_near(size_t len)
{
    return len >= PUBLISH_NEAR_MIN && len <= PUBLISH_NEAR_MAX && vsym_util_core_per_rank() &&
           vsym_util_amd_streams_near();
}

int vsym_util_copy_publish(void *dst, const void *src, size_t len)
{
#if defined(__x86_64__)
    int mode = publish_mode();
    if ((mode == 1 || (mode == 0 && len >= PUBLISH_MIN)) && !vsym_util_copy_streams(len)) {
        size_t head = 0;
        /* auto: one copy in PUBLISH_EVERY is timed (the state lasts seconds), unless
         * publish_near streams it anyway; vsym_util_publish_streams then decides. */
        static unsigned calls;
        if (mode == 0 && !publish_near(len) &&
            __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED) % PUBLISH_EVERY == 0) {
            uint64_t t0 = vsym_util_time_ns();
            memcpy(dst, src, PUBLISH_PROBE);
            head = PUBLISH_PROBE;
            const int forced = __atomic_load_n(&publish_forced, __ATOMIC_RELAXED);
            const uint64_t now = vsym_util_time_ns();
            int slow = forced >= 0 ? forced : now - t0 >= PUBLISH_SLOW_NS;
            uint64_t *word = publish_word;
            static int own_slow; /* this process's probe before */
            const int own_before = own_slow;
            own_slow = slow;
            if (forced < 0 && word != NULL) {
                /* Two slow probes in a row before the record: one alone is the noise of a rank
                 * whose readers are near (near, the reduce-scatter of 512 KiB-2 MiB at 4 ranks
                 * then ran 1.3-1.5x slower). */
                if (slow && own_before) {
                    __atomic_store_n(word, now, __ATOMIC_RELAXED);
                } else if (!slow) {
                    const uint64_t last = __atomic_load_n(word, __ATOMIC_RELAXED);
                    /* (a rank that read its clock after this one may have stored a later time) */
                    slow = last != 0 && (last > now || now - last < PUBLISH_SHARED_NS);
                }
            }
            /* The team's last line round trip (the collectives time it where every rank has a
             * core): far, the readers' fetches are slow whatever this probe found. */
            if (!slow && team_far(word)) slow = 1;
            __atomic_store_n(&publish_last_slow, slow, __ATOMIC_RELAXED);
        }
        if (!vsym_util_publish_streams(len)) {
            memcpy((char *)dst + head, (const char *)src + head, len - head);
            return 0;
        }
        copy_nt((char *)dst + head, (const char *)src + head, len - head, 1);
        return 1;
    }
#endif
    vsym_util_copy(dst, src, len);
    return vsym_util_copy_streams(len);
}

int vsym_util_publish_auto(void)
{
#if defined(__x86_64__)
    return publish_mode() == 0;
#else
    return 0;
#endif
}

int vsym_util_publish_far(void)
{
#if defined(__x86_64__)
    const int mode = publish_mode();
    return mode == 1 || (mode == 0 && team_far(publish_word));
#else
    return 0;
#endif
}

int vsym_util_publish_streams(size_t len)
{
#if defined(__x86_64__)
    int mode = publish_mode();
    return mode == 1 ||
           (mode == 0 &&
            (publish_near(len) ||
             (len >= PUBLISH_MIN && __atomic_load_n(&publish_last_slow, __ATOMIC_RELAXED))));
#else
    (void)len;
    return 0;
#endif
}

void vsym_util_store_lines(void *p, size_t len)
{
    volatile char *v = p;
    for (size_t o = 0; o < len; o += 64)
        v[o] = v[o];
}

static volatile unsigned load_sink;
void vsym_util_load_lines(const void *p, size_t len)
{
    const volatile char *v = p;
    unsigned s = 0;
    for (size_t o = 0; o < len; o += 64)
        s += (unsigned char)v[o];
    load_sink = s;
}
