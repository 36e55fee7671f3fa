/* VSYM_PROCESS_COPY=auto|keep|off seen from outside the library (the argument names the value).
 * A seccomp filter traps prctl(PR_SET_PTRACER, ...) (SIGSYS; the handler counts the call and
 * makes it return 0 without doing it), so the test sees whether vsym_init named a reader: auto
 * once on a rank with a peer on its node, keep and off never. Then what each value leaves: with
 * auto and keep, process-to-process copies between the node's ranks where Yama does not forbid
 * them without the call (no Yama, or ptrace_scope 0; the call is not made for real here, so a
 * stricter Yama makes those checks skip), checked by a 1 MiB all-to-all of ordinary buffers
 * taking them (path "process-copy") with the right contents; with off none (path "oneshot"). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include "pcopy_common.h"

static volatile sig_atomic_t ptracer_calls;

#if defined(__x86_64__)
static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    if (si->si_syscall == __NR_prctl) {
        ptracer_calls++;
        ((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RAX] = 0;
    }
}
#endif

/* 0 once installed; -1 where it cannot be (another architecture, no seccomp). */
static int trap_set_ptracer(void)
{
#if defined(__x86_64__)
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    if (sigaction(SIGSYS, &sa, NULL) != 0) return -1;
    const struct sock_filter rules[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_prctl, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_PTRACER, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    return pcopy_seccomp(rules, sizeof(rules) / sizeof(rules[0]));
#else
    return -1;
#endif
}

/* Yama's ptrace_scope; 0 where there is no Yama. */
static int ptrace_scope(void)
{
    FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
    int v = 0;
    if (f == NULL) return 0;
    if (fscanf(f, "%d", &v) != 1) v = 0;
    fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "auto") != 0 && strcmp(mode, "keep") != 0 && strcmp(mode, "off") != 0) {
        fprintf(stderr, "usage: core_ptracer auto|keep|off\n");
        return 2;
    }
    setenv("VSYM_PROCESS_COPY", mode, 1);
    if (trap_set_ptracer() != 0)
        vsym_test_skip("cannot install a seccomp filter here (x86-64 Linux with seccomp needed)");
    vsym_ctx_t *ctx;
    VSYM_CHECK_OK(vsym_init(&ctx));
    const int calls = ptracer_calls;
    vsym_team_t *world = vsym_team_world(ctx);
    int n = vsym_team_size(world), me = vsym_team_rank(world);
    int node_peers = 0;
    for (int r = 0; r < n; r++) {
        const char *tp = vsym_team_transport_of(world, r);
        node_peers += r != me && tp != NULL && strcmp(tp, "shm") == 0;
    }
    const int want = strcmp(mode, "auto") == 0 && node_peers > 0;
    VSYM_CHECK(calls == want,
               "VSYM_PROCESS_COPY=%s with %d peers on the node: %d calls of "
               "prctl(PR_SET_PTRACER) in vsym_init, expected %d",
               mode, node_peers, calls, want);
    if (node_peers == 0) {
        VSYM_CHECK_OK(vsym_finalize(ctx));
        vsym_test_skip("no peer on shared memory (one rank, or verbs only)");
    }
    const int off = strcmp(mode, "off") == 0;
    if (!off && ptrace_scope() != 0) {
        VSYM_CHECK_OK(vsym_finalize(ctx));
        vsym_test_skip("Yama's ptrace_scope is not 0: with the call trapped, copies are forbidden");
    }
    for (int r = 0; r < n; r++) {
        const char *tp = vsym_team_transport_of(world, r);
        if (r == me || tp == NULL || strcmp(tp, "shm") != 0) continue;
        VSYM_CHECK(vsym_team_process_copy(world, r) == !off,
                   "VSYM_PROCESS_COPY=%s: process_copy of rank %d is %d", mode, r,
                   vsym_team_process_copy(world, r));
    }

    /* The all-to-all of 1 MiB of ordinary buffers: through process copies unless off, right. */
    char what[64];
    snprintf(what, sizeof(what), "with VSYM_PROCESS_COPY=%s", mode);
    float *src, *dst;
    size_t count;
    pcopy_alltoall(world, off ? "oneshot" : "process-copy", what, &src, &dst, &count);
    free(src);
    free(dst);
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
