/* memcpy-bench: single-thread copy bandwidth, the reference for shared-memory puts and gets.
 *
 *   memcpy-bench -b 8 -e 8M [--json FILE]
 *
 * One unit is a window of copies of one size from one buffer to another (as vsym-bench's bw
 * mode puts a window to the same target offset), timed like vsym-bench. Four copies: glibc
 * memcpy ("memcpy"), a copy with non-temporal stores ("memcpy-nt", 16-byte streaming stores
 * as in vsym_util_copy: no read-for-ownership of the destination), the same with 64-byte
 * AVX-512 stores where the CPU has them ("memcpy-nt512") and "rep movsb" ("rep-movsb"), for
 * choosing the shared-memory copy and VSYM_NT_THRESHOLD. */
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

static void unit_copy(void *arg, long i)
{
    copy_run_t *c = arg;
    (void)i;
    for (long w = 0; w < c->window; w++) {
        switch (c->kind) {
        case COPY_NT:
            copy_nt(c->dst, c->src, c->size);
            break;
#if defined(__x86_64__)
        case COPY_NT512:
            copy_nt512(c->dst, c->src, c->size);
            break;
        case COPY_MOVSB:
            copy_movsb(c->dst, c->src, c->size);
            break;
#endif
        default:
            memcpy(c->dst, c->src, c->size);
            break;
        }
        /* the destination is "used": the compiler may not drop or merge the copies */
        __asm__ volatile("" : : "r"(c->dst) : "memory");
    }
}

int main(int argc, char **argv)
{
    peer_opts_t o;
    vsym_bench_results_t *r;
    double clock_ns;
    char *src, *dst;

    peer_parse(argc, argv, "memcpy-bench", &o);
    src = aligned_alloc(4096, (o.max_size + 4095) / 4096 * 4096);
    dst = aligned_alloc(4096, (o.max_size + 4095) / 4096 * 4096);
    if (src == NULL || dst == NULL) {
        fprintf(stderr, "memcpy-bench: out of memory\n");
        return 1;
    }
    memset(src, 1, o.max_size);
    memset(dst, 2, o.max_size);
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
            peer_measure(&o, clock_ns, unit_copy, &c, (double)s * (double)c.window,
                         (double)c.window, (double)c.window, 0, &st);
            st.window = c.window;
            peer_emit(r, &o, clock_ns, "memcpy", op, "bw", s, &st);
            if (s > o.max_size / o.factor) break;
        }
    }
    vsym_bench_results_close(r);
    free(src);
    free(dst);
    return 0;
}
