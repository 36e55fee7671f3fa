/* What core_no_pcopy and core_ptracer share: installing a seccomp filter, and a check of the
 * 1 MiB all-to-all (and all-reduce) of ordinary buffers. */
#ifndef VSYM_CONFORMANCE_PCOPY_COMMON_H
#define VSYM_CONFORMANCE_PCOPY_COMMON_H

#include <stddef.h>
#include <sys/prctl.h>
#if defined(__x86_64__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#endif
#include "harness.h"
#include <vsym/coll.h>

/* A seccomp filter for this process and its threads: anything but an x86-64 system call allowed,
 * then the given rules (up to 29, starting with the load of what they test). 0 once installed;
 * -1 where it cannot be (another architecture, no seccomp). */
static inline int pcopy_seccomp(const void *rules, size_t nrules)
{
#if defined(__x86_64__)
    struct sock_filter f[32] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    if (nrules > 29) return -1;
    memcpy(f + 3, rules, nrules * sizeof(f[0]));
    struct sock_fprog prog = {(unsigned short)(3 + nrules), f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0 ? 0 : -1;
#else
    (void)rules, (void)nrules;
    return -1;
#endif
}

/* A 1 MiB all-to-all of ordinary buffers (the size from which the library reads the peers' src
 * with process-to-process copies where they are allowed) takes the path want_path and moves every
 * element right; an all-reduce of as much takes such copies where the all-to-all does. The buffers
 * stay allocated for the caller (*src_p, *dst_p: n blocks of *count_p elements each), which frees
 * them. */

static inline float pcopy_value(int sender, size_t index)
{
    return (float)(sender * 100003 + (int)(index % 100000));
}

static inline void pcopy_alltoall(vsym_team_t *team, const char *want_path, const char *what,
                                  float **src_p, float **dst_p, size_t *count_p)
{
    int n = vsym_team_size(team), me = vsym_team_rank(team);
    vsym_coll_t *c;
    /* From 1 MiB at every team size (auto takes none between 2 ranks). */
    vsym_test_coll_with(team, "VSYM_COLL_PCOPY_MIN", "1M", &c);
    size_t count = ((size_t)1 << 20) / sizeof(float) / (size_t)n + 1, total = count * (size_t)n;
    float *src = malloc(total * sizeof(float)), *dst = malloc(total * sizeof(float));
    VSYM_CHECK(src != NULL && dst != NULL, "malloc");
    for (size_t i = 0; i < total; i++)
        src[i] = pcopy_value(me, i);
    const char *path = vsym_coll_path(c, VSYM_COLL_KIND_ALLTOALL, src, dst, count, VSYM_DTYPE_F32,
                                      0, VSYM_COLL_AUTO);
    VSYM_CHECK(path != NULL && strcmp(path, want_path) == 0,
               "all-to-all of 1 MiB %s: path %s, expected %s", what, path ? path : "NULL",
               want_path);
    VSYM_CHECK_OK(vsym_coll_alltoall(c, src, dst, count, VSYM_DTYPE_F32, VSYM_COLL_AUTO));
    for (int r = 0; r < n; r++)
        for (size_t i = 0; i < count; i++)
            VSYM_CHECK(dst[(size_t)r * count + i] == pcopy_value(r, (size_t)me * count + i),
                       "all-to-all %s: element %zu of block %d", what, i, r);
    /* The all-reduce of as many f32 in place: through process-to-process copies exactly where
     * the all-to-all takes them, and right either way. */
    float *ar = malloc(total * sizeof(float));
    VSYM_CHECK(ar != NULL, "malloc");
    for (size_t i = 0; i < total; i++)
        ar[i] = (float)(me + 1) * (float)(i % 1000);
    const char *ap = vsym_coll_path(c, VSYM_COLL_KIND_ALLREDUCE, ar, ar, total, VSYM_DTYPE_F32,
                                    VSYM_RED_SUM, VSYM_COLL_AUTO);
    VSYM_CHECK(ap != NULL &&
                   (strcmp(ap, "process-copy") == 0) == (strcmp(want_path, "process-copy") == 0),
               "all-reduce of 1 MiB %s in place: path %s (the all-to-all's: %s)", what,
               ap ? ap : "NULL", want_path);
    VSYM_CHECK_OK(
        vsym_coll_allreduce(c, ar, ar, total, VSYM_DTYPE_F32, VSYM_RED_SUM, VSYM_COLL_AUTO));
    for (size_t i = 0; i < total; i++)
        VSYM_CHECK(ar[i] == (float)(n * (n + 1) / 2) * (float)(i % 1000),
                   "all-reduce %s: element %zu is %g", what, i, (double)ar[i]);
    free(ar);
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    *src_p = src;
    *dst_p = dst;
    *count_p = count;
}

#endif
