/* A peer that dies: the surviving rank's puts and quiet fail with VSYM_ERR_PEER_FAILED (or
 * VSYM_ERR_TIMED_OUT) naming the peer, within the timeout, and never hang. The last rank leaves
 * without destroying its transport (its queue pairs vanish with the process, as in a crash, but
 * the launcher sees a clean exit and does not tear the job down). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "boot/boot.h"
#include "harness.h"
#include "tp/tp.h"

#define ARENA_SIZE (1u << 20)

int main(void)
{
    vsym_boot_t boot;
    vsym_tp_arena_t arena;
    vsym_tp_t *tp;
    vsym_status_t st;

    setenv("VSYM_TIMEOUT", "15", 1);
    /* 537 ms x 7 tries: the dead peer shows as a retry-exceeded completion inside the 15 s. */
    setenv("VSYM_ACK_TIMEOUT", "17", 1);
    VSYM_CHECK_OK(vsym_boot_init(&boot));
    int me = boot.rank, n = boot.size;
    vsym_util_log_set_identity(me, "");
    if (n < 2)
        vsym_test_skip("needs at least 2 ranks");
    arena.memfd = memfd_create("vsym-verbs-death", MFD_CLOEXEC);
    VSYM_CHECK(arena.memfd >= 0 && ftruncate(arena.memfd, ARENA_SIZE) == 0, "memfd");
    arena.size = ARENA_SIZE;
    arena.base = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, arena.memfd, 0);
    VSYM_CHECK(arena.base != MAP_FAILED, "mmap");
    uint8_t *need = calloc((size_t)n, 1);
    for (int r = 0; r < n; r++)
        need[r] = 1;
    st = vsym_tp_verbs_create(&boot, &arena, need, &tp);
    free(need);
    if (st == VSYM_ERR_NO_DEVICE)
        vsym_test_skip("no RDMA device (run under launch/vsym-softroce)");
    VSYM_CHECK_OK(st);
    int victim = n - 1;
    VSYM_CHECK_OK(vsym_boot_barrier(&boot));
    if (me == victim) {
        vsym_boot_finalize(&boot);
        _exit(0); /* no destroy, no goodbye */
    }
    if (me != 0) {
        /* Other survivors only check that they are not hurt. */
        tp->ops->destroy(tp);
        vsym_boot_finalize(&boot);
        return 0;
    }
    /* Keep writing to the victim until the transport notices it is gone. */
    uint64_t t0 = vsym_util_time_ns();
    char buf[4096] = {0};
    vsym_tp_raddr_t dst = {0, 0, VSYM_TP_ADDR_ARENA};
    for (;;) {
        st = tp->ops->put(tp, victim, &dst, buf, sizeof(buf), 0);
        if (st == VSYM_OK)
            st = tp->ops->quiet(tp, victim);
        if (st != VSYM_OK)
            break;
        VSYM_CHECK(vsym_util_time_ns() - t0 < 60ull * 1000000000ull,
                   "writes to a dead peer still succeed after 60 s");
        usleep(20000);
    }
    double secs = (double)(vsym_util_time_ns() - t0) / 1e9;
    printf("after %.2f s: %s: %s\n", secs, vsym_status_name(st), vsym_error_detail());
    VSYM_CHECK(st == VSYM_ERR_PEER_FAILED, "status %s (want VSYM_ERR_PEER_FAILED)",
               vsym_status_name(st));
    char peer[32];
    snprintf(peer, sizeof(peer), "peer %d", victim);
    VSYM_CHECK(strstr(vsym_error_detail(), peer) != NULL, "detail does not name %s", peer);
    VSYM_CHECK(secs < 10, "took %.1f s to notice", secs);
    /* Later calls fail at once with the same status. */
    VSYM_CHECK(tp->ops->quiet(tp, victim) == st, "quiet after failure");
    tp->ops->destroy(tp);
    vsym_boot_finalize(&boot);
    printf("verbs_peer_death: PASS\n");
    return 0;
}
