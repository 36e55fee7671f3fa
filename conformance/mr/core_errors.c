/* Bad input gets a clear status naming the problem; nothing crashes; a wait on an unresponsive
 * peer times out naming it. With --kill, rank 1 kills itself after set-up (the killed-rank
 * clean-up test drives that mode). */
#include <signal.h>
#include <stdint.h>
#include <unistd.h>
#include "harness.h"
#include "util/util.h"

static char proc_state(int pid)
{
    char path[64], buf[256];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return '?';
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p[2] : '?';
}

int main(int argc, char **argv)
{
    vsym_ctx_t *ctx = NULL;
    vsym_obj_t *obj;

    /* Malformed and unknown settings are refused before anything starts. */
    setenv("VSYM_TIMEOUT", "soon", 1);
    VSYM_CHECK_STATUS(vsym_init(&ctx), VSYM_ERR_INVALID_PARAM, "VSYM_TIMEOUT=soon");
    unsetenv("VSYM_TIMEOUT");
    setenv("VSYM_HEAP_SIZ", "1M", 1);
    VSYM_CHECK_STATUS(vsym_init(&ctx), VSYM_ERR_INVALID_PARAM, "unknown setting VSYM_HEAP_SIZ");
    unsetenv("VSYM_HEAP_SIZ");
    setenv("VSYM_HEAP_SIZE", "12Q", 1);
    VSYM_CHECK_STATUS(vsym_init(&ctx), VSYM_ERR_INVALID_PARAM, "VSYM_HEAP_SIZE=12Q");
    unsetenv("VSYM_HEAP_SIZE");
    setenv("VSYM_SPIN_PAUSE", "sometimes", 1);
    VSYM_CHECK_STATUS(vsym_init(&ctx), VSYM_ERR_INVALID_PARAM, "VSYM_SPIN_PAUSE=sometimes");
    VSYM_CHECK(ctx == NULL, "ctx set on failure");

    /* The rest runs its waits without pause (VSYM_SPIN_PAUSE=off), which must be in force. */
    setenv("VSYM_SPIN_PAUSE", "off", 1);
    VSYM_CHECK_OK(vsym_init(&ctx));
    VSYM_CHECK(vsym_util_spin_pause == 0, "VSYM_SPIN_PAUSE=off left pause on");
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    /* A wait on a NIC's completions polls without yielding where every rank has a core, and
     * backs off like a wait on a rank where ranks share cores (VSYM_SPIN_COUNT auto). */
    {
        vsym_backoff_t br, bd;
        vsym_backoff_init(&br, 1);
        vsym_backoff_init_device(&bd, 1);
        const int spin_auto = vsym_config_int(VSYM_CFG_SPIN_COUNT) < 0;
        const long cores = sysconf(_SC_NPROCESSORS_ONLN);
        const char *vn = getenv("VSYM_VIRTUAL_NODES");
        /* All ranks on this machine and no pretend nodes: the detection itself. */
        if ((vn == NULL || strcmp(vn, "0") == 0) && vsym_team_size(vsym_team_node(ctx)) == n)
            VSYM_CHECK(vsym_util_core_per_rank() == (n <= cores),
                       "%d ranks on %ld cores: core per rank %d", n, cores,
                       vsym_util_core_per_rank());
        if (spin_auto && vsym_util_core_per_rank())
            VSYM_CHECK(bd.spin_limit >= 1000000000u && bd.yield_limit > bd.spin_limit,
                       "device wait with a core per rank: spins %u", bd.spin_limit);
        else
            VSYM_CHECK(bd.spin_limit == br.spin_limit && bd.yield_limit == br.yield_limit,
                       "device wait with ranks sharing cores or a set spin count: spins %u, "
                       "rank wait %u",
                       bd.spin_limit, br.spin_limit);
    }
    VSYM_CHECK_OK(vsym_alloc(world, 1024, &obj));
    char buf[64] = {0};

    if (argc > 1 && strcmp(argv[1], "--kill") == 0) {
        VSYM_CHECK_OK(vsym_team_barrier(world, 0));
        if (me == 1)
            raise(SIGKILL);
        /* The others wait for a signal the dead rank never sends. */
        VSYM_CHECK_STATUS(vsym_signal_wait(obj, 1 % n, 0, 2.0), VSYM_ERR_TIMED_OUT, "rank 1 (");
        fprintf(stderr, "rank %d: wait on the killed rank timed out as expected: %s\n", me,
                vsym_error_detail());
        /* Finalizing would wait for the dead rank again: leave at once. */
        fflush(stderr);
        _exit(0);
    }

    VSYM_CHECK_STATUS(vsym_put(obj, n, 0, buf, 8), VSYM_ERR_BAD_RANK, "rank");
    VSYM_CHECK_STATUS(vsym_put(obj, -1, 0, buf, 8), VSYM_ERR_BAD_RANK, "rank -1");
    VSYM_CHECK_STATUS(vsym_get(obj, n + 5, 0, buf, 8), VSYM_ERR_BAD_RANK, NULL);
    VSYM_CHECK_STATUS(vsym_put(obj, 0, 1020, buf, 8), VSYM_ERR_OUT_OF_BOUNDS, "[1020, 1028)");
    VSYM_CHECK_STATUS(vsym_put(obj, 0, 2000, buf, 1), VSYM_ERR_OUT_OF_BOUNDS, "1024-byte");
    VSYM_CHECK_STATUS(vsym_get_nbi(obj, 0, 0, buf, 4096), VSYM_ERR_OUT_OF_BOUNDS, NULL);
    VSYM_CHECK_STATUS(vsym_put(obj, 0, SIZE_MAX - 2, buf, 8), VSYM_ERR_OUT_OF_BOUNDS, NULL);
    VSYM_CHECK_STATUS(vsym_put(obj, 0, 0, NULL, 8), VSYM_ERR_INVALID_PARAM, "NULL source");
    VSYM_CHECK_STATUS(vsym_put(NULL, 0, 0, buf, 8), VSYM_ERR_INVALID_PARAM, "NULL object");
    VSYM_CHECK_OK(vsym_put(obj, 0, 1024, NULL, 0)); /* an empty put at the end is fine */
    uint64_t old;
    uint32_t old32;
    VSYM_CHECK_STATUS(vsym_atomic64(obj, 0, 4, VSYM_AMO_FETCH_ADD, 1, 0, &old),
                      VSYM_ERR_UNALIGNED, "offset 4 is not 8-byte aligned");
    VSYM_CHECK_STATUS(vsym_atomic32(obj, 0, 2, VSYM_AMO_SWAP, 1, 0, &old32), VSYM_ERR_UNALIGNED,
                      "4-byte");
    VSYM_CHECK_STATUS(vsym_atomic64(obj, 0, 1024, VSYM_AMO_SET, 1, 0, NULL),
                      VSYM_ERR_OUT_OF_BOUNDS, NULL);
    VSYM_CHECK_STATUS(vsym_atomic64(obj, 0, 0, (vsym_amo_op_t)42, 1, 0, &old), VSYM_ERR_BAD_OP,
                      "42");
    VSYM_CHECK_STATUS(vsym_atomic64(obj, 0, 0, VSYM_AMO_FETCH, 0, 0, NULL),
                      VSYM_ERR_INVALID_PARAM, "NULL old_p");
    VSYM_CHECK_STATUS(vsym_wait_until64(obj, 3, VSYM_CMP_EQ, 0, 0), VSYM_ERR_UNALIGNED, NULL);
    VSYM_CHECK_STATUS(vsym_wait_until64(obj, 0, (vsym_cmp_t)9, 0, 0), VSYM_ERR_BAD_OP, NULL);
    VSYM_CHECK_STATUS(vsym_rendezvous(world, NULL, 10, &obj), VSYM_ERR_INVALID_PARAM, "NULL");

    /* Local buffers registered as the source of puts (over verbs read in place by the NIC):
     * the bad calls, then a put from one to the next rank, every byte checked there. */
    unsigned char *lb = malloc(4096), *kept = malloc(64);
    VSYM_CHECK_STATUS(vsym_buffer_register(NULL, lb, 4096), VSYM_ERR_INVALID_PARAM, "NULL ctx");
    VSYM_CHECK_STATUS(vsym_buffer_register(ctx, NULL, 4096), VSYM_ERR_INVALID_PARAM,
                      "NULL address");
    VSYM_CHECK_STATUS(vsym_buffer_register(ctx, lb, 0), VSYM_ERR_INVALID_PARAM, "0 bytes");
    VSYM_CHECK_OK(vsym_buffer_register(ctx, lb, 4096));
    VSYM_CHECK_OK(vsym_buffer_register(ctx, lb, 64));   /* a second one at the same address */
    VSYM_CHECK_OK(vsym_buffer_register(ctx, kept, 64)); /* left to vsym_finalize */
    for (int i = 0; i < 1024; i++)
        lb[i] = (unsigned char)(me * 7 + i);
    VSYM_CHECK_OK(vsym_put_nbi(obj, (me + 1) % n, 0, lb, 1024));
    VSYM_CHECK_OK(vsym_quiet(ctx));
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    const unsigned char *got = vsym_obj_ptr(obj);
    const int left = (me + n - 1) % n;
    for (int i = 0; i < 1024; i++)
        VSYM_CHECK(got[i] == (unsigned char)(left * 7 + i),
                   "put from a registered buffer: byte %d is %u, expected %u", i, got[i],
                   (unsigned char)(left * 7 + i));
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    VSYM_CHECK_OK(vsym_buffer_unregister(ctx, lb));
    VSYM_CHECK_OK(vsym_buffer_unregister(ctx, lb));
    VSYM_CHECK_STATUS(vsym_buffer_unregister(ctx, lb), VSYM_ERR_INVALID_PARAM, "not registered");
    VSYM_CHECK_STATUS(vsym_buffer_unregister(NULL, lb), VSYM_ERR_INVALID_PARAM, "NULL ctx");
    free(lb);
    VSYM_CHECK(strcmp(vsym_status_str(VSYM_ERR_TIMED_OUT), "timed out waiting for a peer") == 0,
               "status string");
    VSYM_CHECK(strcmp(vsym_status_name(VSYM_ERR_BAD_CHANNEL), "VSYM_ERR_BAD_CHANNEL") == 0,
               "status name");

    /* An unresponsive peer: rank 1 stops itself; rank 0's wait times out naming rank 1, then
     * rank 0 wakes it up and both finish normally. */
    if (n >= 2 && me <= 1) {
        int pid = getpid(), *pids = calloc((size_t)n, sizeof(int));
        VSYM_CHECK_OK(vsym_team_exchange(world, &pid, sizeof(pid), pids));
        if (me == 1) {
            raise(SIGSTOP);
        } else {
            VSYM_CHECK_STATUS(vsym_signal_wait(obj, 1, 0, 0.5), VSYM_ERR_TIMED_OUT, "rank 1 (");
            VSYM_CHECK(strstr(vsym_error_detail(), "timed out after") != NULL, "%s",
                       vsym_error_detail());
            uint64_t deadline = vsym_util_time_ns() + 10000000000ull;
            while (proc_state(pids[1]) != 'T' && vsym_util_time_ns() < deadline)
                usleep(1000);
            kill(pids[1], SIGCONT);
        }
        free(pids);
    } else if (n >= 2) {
        int pid = getpid(), *pids = calloc((size_t)n, sizeof(int));
        VSYM_CHECK_OK(vsym_team_exchange(world, &pid, sizeof(pid), pids));
        free(pids);
    }
    VSYM_CHECK_OK(vsym_obj_free(obj));
    VSYM_CHECK_OK(vsym_finalize(ctx));
    free(kept); /* unregistered by vsym_finalize */
    VSYM_CHECK_OK(vsym_finalize(NULL));
    return 0;
}
