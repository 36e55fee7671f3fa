/* The copy service's matching and validation alone (no processes): every kind of invalid set
 * gives its status and a detail naming the offending task ids; a valid set matches every task. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "copy/match.h"
#include "harness.h"

static vsym_copy_reg_t S(uint64_t id, uint64_t size, int rank, int peer)
{
    return (vsym_copy_reg_t){.id = id,
                             .size = size,
                             .rank = rank,
                             .peer = peer,
                             .kind = VSYM_COPY_REG_SEND,
                             .buf = UINT32_MAX};
}

static vsym_copy_reg_t R(uint64_t id, uint64_t size, int rank, int peer, uint64_t addr)
{
    return (vsym_copy_reg_t){.id = id,
                             .size = size,
                             .addr = addr,
                             .rank = rank,
                             .peer = peer,
                             .kind = VSYM_COPY_REG_RECV,
                             .buf = 0};
}

static void expect(const vsym_copy_reg_t *regs, size_t n, vsym_status_t status,
                   const char *const *needles)
{
    vsym_copy_sched_task_t *tasks = NULL;
    size_t ntasks = 0;
    VSYM_CHECK_STATUS(vsym_copy_match(regs, n, 4, &tasks, &ntasks), status, needles[0]);
    for (size_t i = 1; needles[i] != NULL; i++)
        VSYM_CHECK(strstr(vsym_error_detail(), needles[i]) != NULL, "detail lacks \"%s\": %s",
                   needles[i], vsym_error_detail());
    VSYM_CHECK(tasks == NULL && ntasks == 0, "outputs set on failure");
}

int main(void)
{
    /* A valid set: remote, local, empty. */
    vsym_copy_reg_t ok[] = {S(3, 100, 0, 1),       R(3, 100, 1, 0, 0x1000), S(1, 0, 2, 3),
                            R(1, 0, 3, 2, 0x1000), S(7, 50, 2, 2),          R(7, 50, 2, 2, 0x2000)};
    vsym_copy_sched_task_t *tasks = NULL;
    size_t ntasks = 0;
    VSYM_CHECK_OK(vsym_copy_match(ok, 6, 4, &tasks, &ntasks));
    VSYM_CHECK(ntasks == 3 && tasks[0].id == 1 && tasks[1].id == 3 && tasks[2].id == 7,
               "valid set: %zu tasks", ntasks);
    VSYM_CHECK(tasks[1].src == 0 && tasks[1].dst == 1 && tasks[1].size == 100 &&
                   tasks[1].send_reg == 0 && tasks[1].recv_reg == 1,
               "task 3 matched wrongly");
    free(tasks);

    /* Each error kind alone. */
    vsym_copy_reg_t dup[] = {S(5, 8, 0, 1), S(5, 8, 2, 1), R(5, 8, 1, 0, 0x1000)};
    expect(dup, 3, VSYM_ERR_BAD_TASK,
           (const char *const[]){"task 5", "send registered 2 times", "1 invalid task", NULL});
    vsym_copy_reg_t dup_recv[] = {S(6, 8, 0, 1), R(6, 8, 1, 0, 0x1000), R(6, 8, 1, 0, 0x3000)};
    expect(dup_recv, 3, VSYM_ERR_BAD_TASK,
           (const char *const[]){"task 6", "receive registered 2 times", NULL});
    vsym_copy_reg_t one_side[] = {S(9, 8, 0, 1), R(11, 8, 3, 2, 0x1000)};
    expect(one_side, 2, VSYM_ERR_BAD_TASK,
           (const char *const[]){"task 9: send on rank 0 to rank 1 has no receive",
                                 "task 11: receive on rank 3 from rank 2 has no send",
                                 "2 invalid tasks", NULL});
    vsym_copy_reg_t size[] = {S(12, 100, 0, 1), R(12, 96, 1, 0, 0x1000)};
    expect(size, 2, VSYM_ERR_BAD_SIZE,
           (const char *const[]){"task 12: 100 bytes sent by rank 0, 96 received by rank 1", NULL});
    vsym_copy_reg_t peers[] = {S(13, 8, 0, 2), R(13, 8, 1, 0, 0x1000)};
    expect(peers, 2, VSYM_ERR_BAD_TASK,
           (const char *const[]){"task 13: send on rank 0 names rank 2 but the receive is on "
                                 "rank 1",
                                 NULL});
    vsym_copy_reg_t overlap[] = {S(20, 100, 0, 1), R(20, 100, 1, 0, 0x1000),
                                 S(21, 100, 2, 1), R(21, 100, 1, 2, 0x1050),
                                 S(22, 100, 2, 3), R(22, 100, 3, 2, 0x1050)};
    expect(overlap, 6, VSYM_ERR_BAD_TASK,
           (const char *const[]){"tasks 20 and 21: overlapping receive ranges on rank 1",
                                 "1 invalid task", NULL});
    /* Ranges in rows: column blocks of one matrix interleave without sharing a byte (valid);
     * a block one byte wider than its columns, a contiguous range over a row of another block,
     * and a block whose last row meets a later range do share bytes. Matrix at 0x1000: 8 rows
     * of 40 bytes; blocks of 10 bytes. */
    vsym_copy_reg_t cols[8];
    for (int c = 0; c < 4; c++) {
        cols[2 * c] = S(50 + (uint64_t)c, 80, c, 1);
        cols[2 * c + 1] = R(50 + (uint64_t)c, 80, 1, c, 0x1000 + 10 * (uint64_t)c);
        cols[2 * c + 1].row = 10;
        cols[2 * c + 1].stride = 40;
    }
    tasks = NULL;
    VSYM_CHECK_OK(vsym_copy_match(cols, 8, 4, &tasks, &ntasks));
    VSYM_CHECK(ntasks == 4, "column blocks: %zu tasks", ntasks);
    free(tasks);
    cols[3].row = 11; /* block 51: 11 bytes per row, 88 bytes */
    cols[2].size = cols[3].size = 88;
    expect(cols, 8, VSYM_ERR_BAD_TASK,
           (const char *const[]){"tasks 51 and 52: overlapping receive ranges on rank 1",
                                 "1 invalid task", NULL});
    cols[3].row = 10;
    cols[2].size = cols[3].size = 80;
    vsym_copy_reg_t row_hit[] = {cols[0], cols[1], S(60, 4, 2, 1),
                                 R(60, 4, 1, 2, 0x1000 + 3 * 40 + 8)};
    expect(row_hit, 4, VSYM_ERR_BAD_TASK,
           (const char *const[]){"tasks 50 and 60: overlapping receive ranges on rank 1", NULL});
    vsym_copy_reg_t row_miss[] = {cols[0], cols[1], S(61, 30, 2, 1),
                                  R(61, 30, 1, 2, 0x1000 + 3 * 40 + 10)};
    tasks = NULL;
    VSYM_CHECK_OK(vsym_copy_match(row_miss, 4, 4, &tasks, &ntasks));
    free(tasks);
    vsym_copy_reg_t tail[] = {cols[0], cols[1], S(62, 8, 2, 1),
                              R(62, 8, 1, 2, 0x1000 + 7 * 40 + 9)};
    expect(tail, 4, VSYM_ERR_BAD_TASK,
           (const char *const[]){"tasks 50 and 62: overlapping receive ranges on rank 1", NULL});

    vsym_copy_reg_t bad_peer[] = {S(30, 8, 0, 7), R(31, 8, 1, 0, 0x1000), S(31, 8, 0, 1)};
    bad_peer[0].kind |= VSYM_COPY_REG_BAD_PEER;
    expect(
        bad_peer, 3, VSYM_ERR_BAD_RANK,
        (const char *const[]){"task 30: send on rank 0 names rank 7, outside the team of 4", NULL});

    /* Several kinds: the priority picks the status, the detail lists them all. */
    vsym_copy_reg_t mixed[] = {S(40, 8, 0, 1), R(40, 9, 1, 0, 0x1000), S(41, 8, 0, 1)};
    expect(mixed, 3, VSYM_ERR_BAD_TASK,
           (const char *const[]){"task 41", "task 40", "2 invalid tasks", NULL});

    /* Many problems: counted in full, the first few listed. */
    vsym_copy_reg_t many[50];
    for (int i = 0; i < 50; i++)
        many[i] = S(100 + (uint64_t)i, 8, 0, 1);
    expect(many, 50, VSYM_ERR_BAD_TASK,
           (const char *const[]){"50 invalid tasks (4 listed)", "task 100", NULL});
    printf("copy_match: ok\n");
    return 0;
}
