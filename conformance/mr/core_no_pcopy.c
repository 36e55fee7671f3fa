/* Where the OS forbids process-to-process copies (Yama's ptrace_scope 2 or 3, a seccomp filter
 * of a container): every rank installs a seccomp filter that fails process_vm_readv and
 * process_vm_writev with EPERM before vsym_init, then checks what the library does there. With
 * --setting, no filter: VSYM_PROCESS_COPY=off asks the library to make no such copies, and the
 * same checks hold.
 * vsym_team_process_copy says 0 for every peer on the node; a rendezvous' get from such a peer
 * fails naming it, and does not hang; the all-to-all of 1 MiB of ordinary buffers keeps to the
 * scratch (path "oneshot", not "process-copy") with the right contents; the copy service stages
 * every byte it would have written into an ordinary receive buffer, and moves them right. */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/syscall.h>
#include "pcopy_common.h"
#include <vsym/copy.h>

/* 0 once installed; -1 where it cannot be (another architecture, no seccomp). */
static int block_process_copies(void)
{
#if defined(__x86_64__)
    const struct sock_filter rules[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_readv, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_writev, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
    };
    return pcopy_seccomp(rules, sizeof(rules) / sizeof(rules[0]));
#else
    return -1;
#endif
}

int main(int argc, char **argv)
{
    const int setting = argc > 1 && strcmp(argv[1], "--setting") == 0;
    if (setting)
        setenv("VSYM_PROCESS_COPY", "off", 1);
    else if (block_process_copies() != 0)
        vsym_test_skip("cannot install a seccomp filter here (x86-64 Linux with seccomp needed)");
    vsym_ctx_t *ctx;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int n = vsym_team_size(world), me = vsym_team_rank(world);
    int shm_peers = 0;
    for (int r = 0; r < n; r++) {
        const char *tp = vsym_team_transport_of(world, r);
        if (r == me || tp == NULL || strcmp(tp, "shm") != 0) continue;
        shm_peers++;
        VSYM_CHECK(vsym_team_process_copy(world, r) == 0,
                   "process_copy of rank %d is 1 where such copies are %s", r,
                   setting ? "off" : "blocked");
    }
    if (shm_peers == 0) {
        VSYM_CHECK_OK(vsym_finalize(ctx));
        vsym_test_skip("no peer on shared memory (one rank, or verbs only)");
    }
    const int to = (me + 1) % n, from = (me + n - 1) % n;

    /* A rendezvous' get from a peer: an error naming it, at once. */
    size_t len = 4096;
    char *user = calloc(1, len), *got = calloc(1, len);
    VSYM_CHECK(user != NULL && got != NULL, "calloc");
    vsym_obj_t *ur;
    VSYM_CHECK_OK(vsym_rendezvous(world, user, len, &ur));
    char who[32];
    snprintf(who, sizeof(who), "world rank %d", vsym_team_world_rank(world, to));
    VSYM_CHECK_STATUS(vsym_get(ur, to, 0, got, len), VSYM_ERR_REMOTE_ACCESS, who);
    if (setting)
        VSYM_CHECK(strstr(vsym_error_detail(), "VSYM_PROCESS_COPY=off") != NULL,
                   "the get's error does not name the setting: %s", vsym_error_detail());
    VSYM_CHECK_OK(vsym_obj_free(ur));

    /* The all-to-all of 1 MiB of ordinary buffers: through the scratch, right. */
    float *src, *dst;
    size_t count, total;
    pcopy_alltoall(world, "oneshot", "without process copies", &src, &dst, &count);
    total = count * (size_t)n;

    /* The copy service, a ring of 1 MiB tasks between ordinary buffers: every remote byte
     * staged (none written in place), every byte right, twice. */
    vsym_copy_t *svc;
    size_t bytes = total * sizeof(float);
    VSYM_CHECK_OK(vsym_copy_create(world, &svc));
    VSYM_CHECK_OK(vsym_copy_register_send(svc, (uint64_t)me, src, 0, bytes, to));
    VSYM_CHECK_OK(vsym_copy_register_receive(svc, (uint64_t)from, dst, 0, bytes, from));
    VSYM_CHECK_OK(vsym_copy_schedule(svc));
    vsym_copy_stats_t st;
    VSYM_CHECK_OK(vsym_copy_stats(svc, &st));
    VSYM_CHECK(st.zero_copy_bytes == 0 && st.staged_bytes == st.total_bytes &&
                   st.total_bytes == (uint64_t)n * bytes,
               "copy service without process copies: %llu bytes in place, %llu staged of %llu",
               (unsigned long long)st.zero_copy_bytes, (unsigned long long)st.staged_bytes,
               (unsigned long long)st.total_bytes);
    for (int rep = 0; rep < 2; rep++) {
        memset(dst, 0, bytes);
        VSYM_CHECK_OK(vsym_copy_run(svc));
        for (size_t i = 0; i < total; i++)
            VSYM_CHECK(dst[i] == pcopy_value(from, i), "copy run %d: element %zu from rank %d", rep,
                       i, from);
    }
    VSYM_CHECK_OK(vsym_copy_destroy(svc));
    free(src);
    free(dst);
    free(user);
    free(got);
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
