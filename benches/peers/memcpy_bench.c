/* memcpy-bench: single-thread copy bandwidth, the reference for shared-memory puts and gets.
 *
 *   memcpy-bench -b 8 -e 8M [--json FILE]
 *
 * One unit is a window of copies of one size from one buffer to another (as vsym-bench's bw
 * mode puts a window to the same target offset), timed like vsym-bench. Four copies: glibc
 * memcpy ("memcpy"), a copy with non-temporal stores ("memcpy-nt", 16-byte streaming stores
 * as in vsym_util_copy: no read-for-ownership of the destination), the same with 64-byte
 * AVX-512 stores where the CPU has them ("memcpy-nt512") and "rep movsb" ("rep-movsb"), for
 * choosing the shared-memory copy and VSYM_NT_THRESHOLD.
 *
 * --loaded: the same copy of the same size runs meanwhile on every other CPU the program may use
 * (one thread per CPU, each with its own buffers, copying until the size is measured); the
 * timed copy runs on the first CPU. This is the copy speed a rank gets while the others move
 * their bytes too, as in a collective: the bound its large sizes are held to. (One process per
 * core started together does not do it: at sizes that take microseconds, the processes' timed
 * copies hardly overlap.) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include "peer_common.h"

enum { COPY_MEMCPY, COPY_NT, COPY_NT512, COPY_MOVSB, COPY_KINDS };
static const char *const copy_names[COPY_KINDS] = {"memcpy", "memcpy-nt", "memcpy-nt512",
                                                   "rep-movsb"};

typedef struct copy_run {
    char *dst;
    const char *src;
    size_t size;
    long window;
    int kind;
} copy_run_t;

#if defined(__x86_64__)
static void copy_nt(char *d, const char *s, size_t len)
{
    size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    if (head > len) head = len;
    memcpy(d, s, head);
    d += head;
    s += head;
    len -= head;
    for (; len >= 64; d += 64, s += 64, len -= 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + 48));
        _mm_stream_si128((__m128i *)(void *)d, a);
        _mm_stream_si128((__m128i *)(void *)(d + 16), b);
        _mm_stream_si128((__m128i *)(void *)(d + 32), c);
        _mm_stream_si128((__m128i *)(void *)(d + 48), e);
    }
    _mm_sfence();
    memcpy(d, s, len);
}
/* The same with 64-byte AVX-512 streaming stores (one store per cache line). */
__attribute__((target("avx512f"))) static void copy_nt512(char *d, const char *s, size_t len)
{
    size_t head = (64 - ((uintptr_t)d & 63)) & 63;
    if (head > len) head = len;
    memcpy(d, s, head);
    d += head;
    s += head;
    len -= head;
    for (; len >= 64; d += 64, s += 64, len -= 64)
        _mm512_stream_si512((void *)d, _mm512_loadu_si512((const void *)s));
    _mm_sfence();
    memcpy(d, s, len);
}

/* "rep movsb": fast on CPUs with ERMS/FSRM, and the kernel's own copy. */
static void copy_movsb(char *d, const char *s, size_t len)
{
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(len) : : "memory");
}
#else
static void copy_nt(char *d, const char *s, size_t len)
{
    memcpy(d, s, len);
}
#endif

static void copy_once(int kind, char *dst, const char *src, size_t size)
{
    switch (kind) {
    case COPY_NT:
        copy_nt(dst, src, size);
        break;
#if defined(__x86_64__)
    case COPY_NT512:
        copy_nt512(dst, src, size);
        break;
    case COPY_MOVSB:
        copy_movsb(dst, src, size);
        break;
#endif
    default:
        memcpy(dst, src, size);
        break;
    }
    /* the destination is "used": the compiler may not drop or merge the copies */
    __asm__ volatile("" : : "r"(dst) : "memory");
}

static void unit_copy(void *arg, long i)
{
    copy_run_t *c = arg;
    (void)i;
    for (long w = 0; w < c->window; w++)
        copy_once(c->kind, c->dst, c->src, c->size);
}

/* --loaded: helper threads copying while the first CPU is timed. */
typedef struct loader {
    pthread_t thread;
    int cpu;
    char *src, *dst;
    unsigned long copies; /* copies made at the current size (read by the main thread) */
    int parked;           /* seen size 0 since its last copy */
} loader_t;

static struct {
    int kind;    /* what the helpers copy (written while they are parked) */
    size_t size; /* 0: parked */
    int stop;
} load_ctl;

static int pin_to(pthread_t t, int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(t, sizeof(set), &set);
}

static void *loader_main(void *arg)
{
    loader_t *l = arg;
    for (;;) {
        size_t size = __atomic_load_n(&load_ctl.size, __ATOMIC_ACQUIRE);
        if (__atomic_load_n(&load_ctl.stop, __ATOMIC_ACQUIRE)) return NULL;
        if (size == 0) {
            __atomic_store_n(&l->parked, 1, __ATOMIC_RELEASE);
            sched_yield();
            continue;
        }
        __atomic_store_n(&l->parked, 0, __ATOMIC_RELAXED);
        copy_once(load_ctl.kind, l->dst, l->src, size);
        __atomic_add_fetch(&l->copies, 1, __ATOMIC_RELEASE);
    }
}

/* Start the helpers on size (every one has made a copy of it when this returns). */
static void loaders_run(loader_t *ls, int n, int kind, size_t size)
{
    for (int i = 0; i < n; i++)
        __atomic_store_n(&ls[i].copies, 0, __ATOMIC_RELAXED);
    load_ctl.kind = kind;
    __atomic_store_n(&load_ctl.size, size, __ATOMIC_RELEASE);
    for (int i = 0; i < n; i++)
        while (__atomic_load_n(&ls[i].copies, __ATOMIC_ACQUIRE) == 0)
            sched_yield();
}

/* Park the helpers: each finishes its copy in flight, then waits. */
static void loaders_park(loader_t *ls, int n)
{
    __atomic_store_n(&load_ctl.size, 0, __ATOMIC_RELEASE);
    for (int i = 0; i < n; i++)
        while (!__atomic_load_n(&ls[i].parked, __ATOMIC_ACQUIRE))
            sched_yield();
}

/* Pin this thread to the first allowed CPU and start a helper on each other one. Returns the
 * number of helpers (0 with one CPU), -1 on an error (printed). */
static int loaders_start(loader_t **ls_p, size_t max_size)
{
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
        perror("memcpy-bench: sched_getaffinity");
        return -1;
    }
    int cpus[CPU_SETSIZE], n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &allowed)) cpus[n++] = c;
    loader_t *ls = calloc((size_t)n, sizeof(*ls));
    if (ls == NULL || pin_to(pthread_self(), cpus[0]) != 0) {
        fprintf(stderr, "memcpy-bench: cannot pin to CPU %d\n", cpus[0]);
        free(ls);
        return -1;
    }
    size_t bytes = (max_size + 4095) / 4096 * 4096;
    for (int i = 0; i < n - 1; i++) {
        loader_t *l = &ls[i];
        l->cpu = cpus[i + 1];
        l->src = aligned_alloc(4096, bytes);
        l->dst = aligned_alloc(4096, bytes);
        if (l->src == NULL || l->dst == NULL) {
            fprintf(stderr, "memcpy-bench: out of memory for the helper on CPU %d\n", l->cpu);
            return -1;
        }
        memset(l->src, 1, max_size);
        memset(l->dst, 2, max_size);
        if (pthread_create(&l->thread, NULL, loader_main, l) != 0 ||
            pin_to(l->thread, l->cpu) != 0) {
            fprintf(stderr, "memcpy-bench: cannot start a helper on CPU %d\n", l->cpu);
            return -1;
        }
    }
    *ls_p = ls;
    return n - 1;
}

static void loaders_stop(loader_t *ls, int n)
{
    __atomic_store_n(&load_ctl.stop, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < n; i++) {
        pthread_join(ls[i].thread, NULL);
        free(ls[i].src);
        free(ls[i].dst);
    }
    free(ls);
}

int main(int argc, char **argv)
{
    peer_opts_t o;
    vsym_bench_results_t *r;
    double clock_ns;
    char *src, *dst;

    peer_parse(argc, argv, "memcpy-bench", &o);
    peer_check_only(&o, copy_names, COPY_KINDS);
    src = aligned_alloc(4096, (o.max_size + 4095) / 4096 * 4096);
    dst = aligned_alloc(4096, (o.max_size + 4095) / 4096 * 4096);
    if (src == NULL || dst == NULL) {
        fprintf(stderr, "memcpy-bench: out of memory\n");
        return 1;
    }
    memset(src, 1, o.max_size);
    memset(dst, 2, o.max_size);
    loader_t *loaders = NULL;
    int nload = 0;
    if (o.loaded) {
        nload = loaders_start(&loaders, o.max_size);
        if (nload < 0) return 1;
        o.loaded = nload;
    }
    clock_ns = peer_clock_ns();
    r = peer_open(&o);
    for (int kind = 0; kind < COPY_KINDS; kind++) {
        const char *op = copy_names[kind];
        if (o.only != NULL && strcmp(o.only, op) != 0) continue;
#if defined(__x86_64__)
        if (kind == COPY_NT512 && !__builtin_cpu_supports("avx512f")) continue;
#else
        if (kind == COPY_NT512 || kind == COPY_MOVSB) continue;
#endif
        for (size_t s = o.min_size; s <= o.max_size; s *= o.factor) {
            copy_run_t c = {dst, src, s, peer_window(&o, s), kind};
            peer_stats_t st;
            if (nload > 0) loaders_run(loaders, nload, kind, s);
            peer_measure(&o, clock_ns, unit_copy, &c, (double)s * (double)c.window,
                         (double)c.window, (double)c.window, 0, &st);
            if (nload > 0) loaders_park(loaders, nload);
            st.window = c.window;
            peer_emit(r, &o, clock_ns, "memcpy", op, "bw", s, &st);
            if (s > o.max_size / o.factor) break;
        }
    }
    vsym_bench_results_close(r);
    if (loaders != NULL) loaders_stop(loaders, nload);
    free(src);
    free(dst);
    return 0;
}
