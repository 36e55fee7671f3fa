/* Shared-memory transport: the arenas of the ranks of this node are mapped into every rank of
 * the node; puts and gets are copies, atomics are CPU atomics. Memory outside the arenas (user
 * buffers made symmetric by rendezvous) is reached with process_vm_writev/readv. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include "tp/tp.h"

typedef struct {
    vsym_tp_t super;
    int nranks;
    int me;
    size_t arena_size;
    char **base; /* per world rank: mapped arena, or NULL when not on this node */
    int *pid;
    int pcopy_off; /* VSYM_PROCESS_COPY=off: no process-to-process copies at all */
} shm_tp_t;

typedef struct {
    int32_t pid;
    int32_t memfd;
    uint64_t size;
    uint64_t probe; /* address of probe_word in this process */
} shm_info_t;

/* What every rank reads from each peer of its node at create to learn whether
 * process-to-process copies work there (Yama's ptrace_scope 2 and 3, or a seccomp filter,
 * forbid them). */
static const uint64_t probe_word = 0x76737966726f6265ull;

/* Whether this rank can copy from the memory of every other rank of its node (their probe
 * words), after each has allowed it. Yama's ptrace_scope 1 (Ubuntu's default) lets a process be
 * read only by its ancestors unless it names a reader: the ranks of a job are siblings, so each
 * names any process of its user (PR_SET_PTRACER_ANY; the same users could read its arena
 * through /proc already), unless VSYM_PROCESS_COPY=keep. No Yama: the call fails and nothing
 * changes. */
static int probe_process_copy(const shm_info_t *all, const int *node_of, int n, int me)
{
    for (int r = 0; r < n; r++) {
        uint64_t got = 0;
        struct iovec l = {&got, sizeof(got)};
        struct iovec rv = {(void *)(uintptr_t)all[r].probe, sizeof(got)};
        if (r == me || node_of[r] != node_of[me]) continue;
        if (process_vm_readv(all[r].pid, &l, 1, &rv, 1, 0) != (ssize_t)sizeof(got) ||
            got != probe_word) {
            VSYM_LOG(VSYM_LOG_INFO,
                     "shm: no process-to-process copies from world rank %d (pid %d): %s; puts "
                     "and gets to its rendezvous memory will fail, the collectives keep to "
                     "their scratch",
                     r, all[r].pid, got != 0 ? "wrong data" : strerror(errno));
            return 0;
        }
    }
    return 1;
}

static void *shm_peer_ptr(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *ra)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    if (!(ra->flags & VSYM_TP_ADDR_ARENA))
        return peer == s->me ? (void *)(uintptr_t)ra->addr : NULL;
    return s->base[peer] ? s->base[peer] + ra->addr : NULL;
}

/* Copy between this process and a peer's non-arena memory. */
static vsym_status_t cma(shm_tp_t *s, int peer, void *local, uint64_t remote, size_t len,
                         int write, const char *op)
{
    if (s->pcopy_off && len > 0)
        return VSYM_FAIL(VSYM_ERR_REMOTE_ACCESS,
                         "%s of %zu bytes to world rank %d (pid %d) at 0x%llx: process-to-process "
                         "copies are off (VSYM_PROCESS_COPY=off)",
                         op, len, peer, s->pid[peer], (unsigned long long)remote);
    while (len > 0) {
        struct iovec l = {local, len};
        struct iovec r = {(void *)(uintptr_t)remote, len};
        ssize_t n = write ? process_vm_writev(s->pid[peer], &l, 1, &r, 1, 0)
                          : process_vm_readv(s->pid[peer], &l, 1, &r, 1, 0);
        if (n <= 0)
            return VSYM_FAIL(errno == ESRCH ? VSYM_ERR_PEER_FAILED : VSYM_ERR_REMOTE_ACCESS,
                             "%s of %zu bytes to world rank %d (pid %d) at 0x%llx failed: %s",
                             op, len, peer, s->pid[peer], (unsigned long long)remote,
                             n == 0 ? "nothing copied" : strerror(errno));
        local = (char *)local + n;
        remote += (uint64_t)n;
        len -= (size_t)n;
    }
    return VSYM_OK;
}

static vsym_status_t shm_put(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                             const void *src, size_t len, unsigned flags)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    void *p = shm_peer_ptr(tp, peer, dst);
    (void)flags;
    if (p != NULL) {
        vsym_util_copy(p, src, len);
        return VSYM_OK;
    }
    if (s->base[peer] == NULL)
        return VSYM_FAIL(VSYM_ERR_TRANSPORT, "shm put: world rank %d is not on this node", peer);
    return cma(s, peer, (void *)(uintptr_t)src, dst->addr, len, 1, "shm put");
}

static vsym_status_t shm_get(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *src, void *dst,
                             size_t len, unsigned flags)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    void *p = shm_peer_ptr(tp, peer, src);
    (void)flags;
    if (p != NULL) {
        vsym_util_copy(dst, p, len);
        return VSYM_OK;
    }
    if (s->base[peer] == NULL)
        return VSYM_FAIL(VSYM_ERR_TRANSPORT, "shm get: world rank %d is not on this node", peer);
    return cma(s, peer, dst, src->addr, len, 0, "shm get");
}

#define AMO_BODY(type, p)                                                                          \
    switch (op) {                                                                                  \
    case VSYM_AMO_FETCH:                                                                           \
        old = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                                \
        break;                                                                                     \
    case VSYM_AMO_SET:                                                                             \
        __atomic_store_n(p, value, __ATOMIC_SEQ_CST);                                              \
        break;                                                                                     \
    case VSYM_AMO_ADD:                                                                             \
    case VSYM_AMO_FETCH_ADD:                                                                       \
        old = __atomic_fetch_add(p, value, __ATOMIC_SEQ_CST);                                      \
        break;                                                                                     \
    case VSYM_AMO_SWAP:                                                                            \
        old = __atomic_exchange_n(p, value, __ATOMIC_SEQ_CST);                                     \
        break;                                                                                     \
    case VSYM_AMO_CSWAP: {                                                                         \
        type expected = compare;                                                                   \
        __atomic_compare_exchange_n(p, &expected, value, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
        old = expected;                                                                            \
        break;                                                                                     \
    }                                                                                              \
    }

static vsym_status_t shm_atomic64(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                                  vsym_amo_op_t op, uint64_t value, uint64_t compare,
                                  uint64_t *old_p)
{
    uint64_t *p = shm_peer_ptr(tp, peer, dst);
    uint64_t old = 0;
    if (p == NULL)
        return VSYM_FAIL(VSYM_ERR_UNSUPPORTED,
                         "shm atomic on world rank %d: memory not load/store reachable", peer);
    AMO_BODY(uint64_t, p)
    if (old_p)
        *old_p = old;
    return VSYM_OK;
}

static vsym_status_t shm_atomic32(vsym_tp_t *tp, int peer, const vsym_tp_raddr_t *dst,
                                  vsym_amo_op_t op, uint32_t value, uint32_t compare,
                                  uint32_t *old_p)
{
    uint32_t *p = shm_peer_ptr(tp, peer, dst);
    uint32_t old = 0;
    if (p == NULL)
        return VSYM_FAIL(VSYM_ERR_UNSUPPORTED,
                         "shm atomic on world rank %d: memory not load/store reachable", peer);
    AMO_BODY(uint32_t, p)
    if (old_p)
        *old_p = old;
    return VSYM_OK;
}

static vsym_status_t shm_fence(vsym_tp_t *tp, int peer)
{
    (void)tp;
    (void)peer;
    /* Copies are synchronous stores; x86 keeps them in order, other CPUs need the fence. */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return VSYM_OK;
}

static vsym_status_t shm_quiet(vsym_tp_t *tp, int peer)
{
    (void)tp;
    (void)peer;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return VSYM_OK;
}

static void shm_destroy(vsym_tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    for (int r = 0; r < s->nranks; r++)
        if (s->base[r] && r != s->me)
            munmap(s->base[r], s->arena_size);
    free(s->base);
    free(s->pid);
    free(s);
}

static void shm_mem_dereg(vsym_tp_t *tp, void *memh)
{
    (void)tp;
    (void)memh;
}

static const vsym_tp_ops_t shm_ops = {
    .name = "shm",
    .put_staged_max = SIZE_MAX,
    .destroy = shm_destroy,
    .mem_reg = vsym_tp_unsupported_mem_reg,
    .mem_dereg = shm_mem_dereg,
    .peer_ptr = shm_peer_ptr,
    .put = shm_put,
    .get = shm_get,
    .atomic64 = shm_atomic64,
    .atomic32 = shm_atomic32,
    .atomic64_nbi = shm_atomic64, /* complete on return, which quiet then finds */
    .fence = shm_fence,
    .quiet = shm_quiet,
};

vsym_status_t vsym_tp_shm_create(vsym_boot_t *boot, const vsym_tp_arena_t *arena,
                                 const int *node_of, vsym_tp_t **tp_p)
{
    int n = boot->size, me = boot->rank;
    shm_tp_t *s = calloc(1, sizeof(*s));
    shm_info_t mine = {(int32_t)getpid(), arena->memfd, arena->size,
                       (uint64_t)(uintptr_t)&probe_word};
    shm_info_t *all = calloc((size_t)n, sizeof(*all));
    vsym_status_t st;

    if (s == NULL || all == NULL || (s->base = calloc((size_t)n, sizeof(char *))) == NULL ||
        (s->pid = calloc((size_t)n, sizeof(int))) == NULL) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "shm transport: out of memory");
        goto err;
    }
    s->super.ops = &shm_ops;
    s->nranks = n;
    s->me = me;
    s->arena_size = arena->size;
    /* VSYM_PROCESS_COPY: auto names any reader (below), keep leaves Yama's rule alone, off
     * makes no such copies (no probe either). */
    const char *pc = vsym_config_str(VSYM_CFG_PROCESS_COPY);
    s->pcopy_off = strcmp(pc, "off") == 0;
    for (int r = 0; strcmp(pc, "auto") == 0 && r < n; r++)
        if (r != me && node_of[r] == node_of[me]) {
            (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
            break;
        }
    /* The allgather also orders every rank's prctl before any peer's probe. */
    if ((st = vsym_boot_allgather(boot, NULL, n, "shm", &mine, sizeof(mine), all)) != VSYM_OK)
        goto err;
    for (int r = 0; r < n; r++) {
        char path[64];
        int fd;
        void *p;
        s->pid[r] = all[r].pid;
        if (node_of[r] != node_of[me])
            continue;
        if (r == me) {
            s->base[r] = arena->base;
            continue;
        }
        /* The peer's memfd, opened through /proc: allowed only to processes that may ptrace it
         * (same user), so other users cannot read the segments. */
        snprintf(path, sizeof(path), "/proc/%d/fd/%d", all[r].pid, all[r].memfd);
        fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0) {
            st = VSYM_FAIL(VSYM_ERR_TRANSPORT,
                           "shm: cannot open the arena of world rank %d (%s): %s; are the ranks "
                           "of one node in one PID namespace?",
                           r, path, strerror(errno));
            goto err;
        }
        p = mmap(NULL, all[r].size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (p == MAP_FAILED) {
            st = VSYM_FAIL(VSYM_ERR_TRANSPORT, "shm: cannot map the arena of world rank %d: %s",
                           r, strerror(errno));
            goto err;
        }
        s->base[r] = p;
    }
    s->super.process_copy = !s->pcopy_off && probe_process_copy(all, node_of, n, me);
    free(all);
    *tp_p = &s->super;
    return VSYM_OK;
err:
    if (s && s->base)
        for (int r = 0; r < n; r++)
            if (s->base[r] && r != me)
                munmap(s->base[r], s->arena_size);
    if (s) {
        free(s->base);
        free(s->pid);
    }
    free(s);
    free(all);
    return st;
}
