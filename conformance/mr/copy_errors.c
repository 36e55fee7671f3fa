/* Every validation error of the copy service, triggered on purpose and checked on every rank:
 * duplicate task ids (send side, receive side), a task registered on one side only (either
 * side), sizes that differ, a peer outside the team, sender and receiver that do not name each
 * other, overlapping receive ranges, settings that differ between ranks. schedule() must fail
 * with the same status on every rank, with a detail naming the offending task, before any byte
 * moves; after clear() the service works again. Last, a run() whose receiver never comes must
 * time out naming it. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"

/* Change a setting: the library reads settings once and again at vsym_settings_check(). */
static void set_setting(const char *name, const char *value)
{
    if (value != NULL)
        setenv(name, value, 1);
    else
        unsetenv(name);
    VSYM_CHECK_OK(vsym_settings_check());
}

static unsigned char send_buf[4096];
static unsigned char recv_buf[4096];

/* A valid task next to the invalid ones: after the failed schedule its bytes must not have
 * moved. Rank 0 sends 64 bytes to the last rank. */
static void register_valid(vsym_copy_t *svc, int me, int n)
{
    if (me == 0) VSYM_CHECK_OK(vsym_copy_register_send(svc, 1, send_buf, 1000, 64, n - 1));
    if (me == n - 1) VSYM_CHECK_OK(vsym_copy_register_receive(svc, 1, recv_buf, 1000, 64, 0));
}

static void expect_failure(vsym_copy_t *svc, vsym_status_t status, const char *what,
                           const char *task, const char *name)
{
    vsym_status_t st = vsym_copy_schedule(svc);
    if (st != status || strstr(vsym_error_detail(), what) == NULL ||
        strstr(vsym_error_detail(), task) == NULL)
        VSYM_CHECK(0, "%s: schedule returned %s (\"%s\"), expected %s with \"%s\" and \"%s\"", name,
                   vsym_status_name(st), vsym_error_detail(), vsym_status_name(status), what, task);
    VSYM_CHECK_STATUS(vsym_copy_run(svc), VSYM_ERR_BAD_STATE, "no schedule");
    for (size_t i = 0; i < sizeof(recv_buf); i++)
        VSYM_CHECK(recv_buf[i] == 0xEE, "%s: receive byte %zu moved", name, i);
    VSYM_CHECK_OK(vsym_copy_clear(svc));
}

int main(void)
{
    vsym_ctx_t *ctx;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    if (n < 2) vsym_test_skip("the copy service's errors need 2 ranks or more");
    const int last = n - 1;
    vsym_copy_t *svc;
    VSYM_CHECK_OK(vsym_copy_create(world, &svc));
    memset(send_buf, 0x5A, sizeof(send_buf));
    memset(recv_buf, 0xEE, sizeof(recv_buf));

    /* Rows that do not describe the size: refused at registration, naming the task. */
    VSYM_CHECK_STATUS(vsym_copy_register_send_rows(svc, 70, send_buf, 0, 64, 0, 16, last),
                      VSYM_ERR_BAD_SIZE, "task 70: rows of 0 bytes");
    VSYM_CHECK_STATUS(
        vsym_copy_register_receive_rows(svc, 71, recv_buf, 0, 60, 16, 32, 0), VSYM_ERR_BAD_SIZE,
        "task 71: 60 bytes in rows of 16 bytes 32 apart: the size is not a whole number of rows");
    VSYM_CHECK_STATUS(
        vsym_copy_register_send_rows(svc, 72, send_buf, 0, 64, 16, 8, last), VSYM_ERR_BAD_SIZE,
        "task 72: 64 bytes in rows of 16 bytes 8 apart: the stride is shorter than a row");
    VSYM_CHECK_STATUS(
        vsym_copy_register_receive_rows(svc, 73, recv_buf, SIZE_MAX - 100, 64, 16, 1u << 20, 0),
        VSYM_ERR_INVALID_PARAM, "task 73: position");

    /* Duplicate id on the send side: rank 0 sends task 100 twice. */
    register_valid(svc, me, n);
    if (me == 0) {
        VSYM_CHECK_OK(vsym_copy_register_send(svc, 100, send_buf, 0, 8, 1));
        VSYM_CHECK_OK(vsym_copy_register_send(svc, 100, send_buf, 8, 8, 1));
    }
    if (me == 1) VSYM_CHECK_OK(vsym_copy_register_receive(svc, 100, recv_buf, 0, 8, 0));
    expect_failure(svc, VSYM_ERR_BAD_TASK, "send registered 2 times", "task 100", "dup send");

    /* Duplicate id on the receive side, registered on two ranks. */
    register_valid(svc, me, n);
    if (me == 0) VSYM_CHECK_OK(vsym_copy_register_send(svc, 101, send_buf, 0, 8, 1));
    if (me == 1 || me == last)
        VSYM_CHECK_OK(vsym_copy_register_receive(svc, 101, recv_buf, 100, 8, 0));
    if (n == 2 && me == 1) VSYM_CHECK_OK(vsym_copy_register_receive(svc, 101, recv_buf, 200, 8, 0));
    expect_failure(svc, VSYM_ERR_BAD_TASK, "receive registered 2 times", "task 101", "dup receive");

    /* Send without receive. */
    register_valid(svc, me, n);
    if (me == 0) VSYM_CHECK_OK(vsym_copy_register_send(svc, 102, send_buf, 0, 8, last));
    expect_failure(svc, VSYM_ERR_BAD_TASK, "has no receive", "task 102", "send only");

    /* Receive without send. */
    register_valid(svc, me, n);
    if (me == last) VSYM_CHECK_OK(vsym_copy_register_receive(svc, 103, recv_buf, 0, 8, 0));
    expect_failure(svc, VSYM_ERR_BAD_TASK, "has no send", "task 103", "receive only");

    /* Sizes differ. */
    register_valid(svc, me, n);
    if (me == 0) VSYM_CHECK_OK(vsym_copy_register_send(svc, 104, send_buf, 0, 100, 1));
    if (me == 1) VSYM_CHECK_OK(vsym_copy_register_receive(svc, 104, recv_buf, 0, 96, 0));
    expect_failure(svc, VSYM_ERR_BAD_SIZE, "100 bytes sent by rank 0, 96 received by rank 1",
                   "task 104", "size mismatch");

    /* A peer outside the team: refused at once on the registering rank, and the whole team's
     * schedule fails. */
    register_valid(svc, me, n);
    if (me == last) {
        VSYM_CHECK_STATUS(vsym_copy_register_send(svc, 105, send_buf, 0, 8, n), VSYM_ERR_BAD_RANK,
                          "outside the team");
        VSYM_CHECK_STATUS(vsym_copy_register_receive(svc, 106, recv_buf, 0, 8, -1),
                          VSYM_ERR_BAD_RANK, "outside the team");
    }
    expect_failure(svc, VSYM_ERR_BAD_RANK, "outside the team", "task 105", "bad peer");

    /* Sender and receiver that do not name each other: rank 0 sends to 1, but the receive is
     * registered on rank 1 as coming from rank 1. */
    register_valid(svc, me, n);
    if (me == 0) VSYM_CHECK_OK(vsym_copy_register_send(svc, 107, send_buf, 0, 8, 1));
    if (me == 1) VSYM_CHECK_OK(vsym_copy_register_receive(svc, 107, recv_buf, 0, 8, 1));
    expect_failure(svc, VSYM_ERR_BAD_TASK, "send on rank 0 names rank 1", "task 107",
                   "peer mismatch");

    /* Overlapping receive ranges on one rank (from two different senders where there are). */
    register_valid(svc, me, n);
    int other = n > 2 ? 2 : 0;
    if (me == 0) VSYM_CHECK_OK(vsym_copy_register_send(svc, 108, send_buf, 0, 100, 1));
    if (me == other) VSYM_CHECK_OK(vsym_copy_register_send(svc, 109, send_buf, 200, 100, 1));
    if (me == 1) {
        VSYM_CHECK_OK(vsym_copy_register_receive(svc, 108, recv_buf, 2000, 100, 0));
        VSYM_CHECK_OK(vsym_copy_register_receive(svc, 109, recv_buf, 2050, 100, other));
    }
    expect_failure(svc, VSYM_ERR_BAD_TASK, "overlapping receive ranges on rank 1",
                   "tasks 108 and 109", "overlap");

    /* Several problems at once: all counted, the highest-priority status wins everywhere. */
    register_valid(svc, me, n);
    if (me == 0) {
        VSYM_CHECK_OK(vsym_copy_register_send(svc, 110, send_buf, 0, 10, 1));
        VSYM_CHECK_OK(vsym_copy_register_send(svc, 111, send_buf, 0, 10, 1));
    }
    if (me == 1) VSYM_CHECK_OK(vsym_copy_register_receive(svc, 110, recv_buf, 0, 11, 0));
    expect_failure(svc, VSYM_ERR_BAD_TASK, "2 invalid tasks", "task 111", "mixed");

    /* Settings that must agree: a staging size on rank 0 only. */
    register_valid(svc, me, n);
    if (me == 0) set_setting("VSYM_COPY_STAGING", "64K");
    expect_failure(svc, VSYM_ERR_MISMATCH, "VSYM_COPY_STAGING", "staging", "settings");
    set_setting("VSYM_COPY_STAGING", NULL);

    /* After all that, the valid task alone schedules and runs. */
    register_valid(svc, me, n);
    VSYM_CHECK_OK(vsym_copy_schedule(svc));
    VSYM_CHECK_OK(vsym_copy_run(svc));
    if (me == last)
        for (size_t i = 0; i < sizeof(recv_buf); i++)
            VSYM_CHECK(recv_buf[i] == ((i >= 1000 && i < 1064) ? 0x5A : 0xEE),
                       "valid task: byte %zu is 0x%02x", i, recv_buf[i]);
    VSYM_CHECK_OK(vsym_copy_clear(svc));

    /* A receiver that never enters run(): its sender times out naming it, and does not hang. */
    register_valid(svc, me, n);
    VSYM_CHECK_OK(vsym_copy_schedule(svc));
    if (me == 0) {
        set_setting("VSYM_TIMEOUT", "1");
        VSYM_CHECK_STATUS(vsym_copy_run(svc), VSYM_ERR_TIMED_OUT, "waiting for rank");
        char want[32];
        snprintf(want, sizeof(want), "rank %d", last);
        VSYM_CHECK(strstr(vsym_error_detail(), want) != NULL, "timeout detail lacks %s: %s", want,
                   vsym_error_detail());
        set_setting("VSYM_TIMEOUT", NULL);
    }
    VSYM_CHECK_OK(vsym_copy_destroy(svc));
    VSYM_CHECK_OK(vsym_finalize(ctx));
    if (me == 0) printf("copy_errors: ok\n");
    return 0;
}
