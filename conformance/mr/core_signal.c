/* wait_until with the six comparisons, put with signal (OpenSHMEM style, blocking and
 * non-blocking from registered memory, and on a pad channel), pad channels without cross-talk,
 * back-pressure, barriers, and the pad all zeros afterwards. */
#include <stdint.h>
#include "harness.h"

static void check_pad_zero(vsym_obj_t *obj, int n, int channels)
{
    for (int ch = 0; ch < channels; ch++)
        for (int src = 0; src < n; src++) {
            uint64_t v;
            VSYM_CHECK_OK(vsym_signal_peek(obj, src, ch, &v));
            VSYM_CHECK(v == 0, "pad slot [channel %d][rank %d] is %llu after synchronisation",
                       ch, src, (unsigned long long)v);
        }
}

int main(void)
{
    vsym_ctx_t *ctx;
    vsym_obj_t *obj, *sig;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    int channels = vsym_signal_channels(ctx);
    if (n < 2)
        vsym_test_skip("needs at least 2 ranks");
    int to = (me + 1) % n, from = (me + n - 1) % n;
    VSYM_CHECK(channels >= 8, "need 8 channels, have %d", channels);
    VSYM_CHECK_OK(vsym_alloc(world, 1 << 16, &obj));
    VSYM_CHECK_OK(vsym_alloc(world, 64, &sig));
    uint64_t *word = vsym_obj_ptr(sig);
    memset(word, 0, 64);
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));

    /* wait_until: the previous rank writes a value, this rank waits for a condition that only
     * that value satisfies, then acknowledges on channel 1. */
    static const struct {
        vsym_cmp_t cmp;
        uint64_t cond, write;
    } steps[] = {{VSYM_CMP_EQ, 5, 5},  {VSYM_CMP_NE, 5, 6}, {VSYM_CMP_GT, 6, 7},
                 {VSYM_CMP_GE, 9, 9},  {VSYM_CMP_LT, 9, 3}, {VSYM_CMP_LE, 2, 2}};
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        VSYM_CHECK_OK(vsym_put(sig, to, 0, &steps[i].write, 8));
        VSYM_CHECK_OK(vsym_quiet(ctx));
        VSYM_CHECK_OK(vsym_wait_until64(sig, 0, steps[i].cmp, steps[i].cond, 0));
        VSYM_CHECK(word[0] == steps[i].write, "step %zu: word %llu", i,
                   (unsigned long long)word[0]);
        VSYM_CHECK_OK(vsym_signal_put(obj, from, 1, 0));
        VSYM_CHECK_OK(vsym_signal_wait(obj, to, 1, 0));
    }
    /* A condition that never holds times out and says so. */
    VSYM_CHECK_STATUS(vsym_wait_until64(sig, 0, VSYM_CMP_EQ, 12345, 0.2), VSYM_ERR_TIMED_OUT,
                      "the word is 2");

    /* Put with signal (signal word, ADD): the data is complete when the signal is seen. */
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    word[1] = 0;
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    uint32_t buf[1024];
    for (uint32_t round = 1; round <= 100; round++) {
        for (int i = 0; i < 1024; i++)
            buf[i] = round * 7919u + (uint32_t)i + (uint32_t)me * 100000u;
        VSYM_CHECK_OK(vsym_put_signal(obj, to, 0, buf, sizeof(buf), sig, 8, 1, VSYM_SIGNAL_ADD));
        VSYM_CHECK_OK(vsym_wait_until64(sig, 8, VSYM_CMP_GE, round, 0));
        const uint32_t *got = vsym_obj_ptr(obj);
        for (int i = 0; i < 1024; i++)
            VSYM_CHECK(got[i] == round * 7919u + (uint32_t)i + (uint32_t)from * 100000u,
                       "round %u word %d: %u", round, i, got[i]);
        /* The sender may overwrite only after this rank has read: acknowledge on channel 2. */
        VSYM_CHECK_OK(vsym_signal_put(obj, from, 2, 0));
        VSYM_CHECK_OK(vsym_signal_wait(obj, to, 2, 0));
    }

    /* Non-blocking put with signal from registered memory (a symmetric object), 32 KiB: above
     * what a NIC transport stages, so the data leaves straight from the source. The source is
     * rewritten each round only after a quiet; ADD and SET signals in turn. */
    vsym_obj_t *src_obj;
    VSYM_CHECK_OK(vsym_alloc(world, 1 << 15, &src_obj));
    uint32_t *sbuf = vsym_obj_ptr(src_obj);
    const int nwords = (1 << 15) / 4;
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    word[2] = word[3] = 0;
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    for (uint32_t round = 1; round <= 60; round++) {
        for (int i = 0; i < nwords; i++)
            sbuf[i] = round * 40503u ^ (uint32_t)i * 2246822519u ^ (uint32_t)me << 24;
        int set = round % 2 == 0;
        VSYM_CHECK_OK(vsym_put_signal_nbi(obj, to, 16384, sbuf, 1 << 15, sig, set ? 24 : 16,
                                          set ? round : 1, set ? VSYM_SIGNAL_SET : VSYM_SIGNAL_ADD));
        if (set)
            VSYM_CHECK_OK(vsym_wait_until64(sig, 24, VSYM_CMP_EQ, round, 0));
        else
            VSYM_CHECK_OK(vsym_wait_until64(sig, 16, VSYM_CMP_EQ, (round + 1) / 2, 0));
        const uint32_t *got = (const uint32_t *)((const char *)vsym_obj_ptr(obj) + 16384);
        int bad = 0;
        for (int i = 0; i < nwords; i++)
            bad += got[i] != (round * 40503u ^ (uint32_t)i * 2246822519u ^ (uint32_t)from << 24);
        VSYM_CHECK(bad == 0, "put_signal_nbi round %u (%s): %d of %d words wrong when the signal "
                   "was seen", round, set ? "SET" : "ADD", bad, nwords);
        VSYM_CHECK_OK(vsym_quiet(ctx));
        VSYM_CHECK_OK(vsym_signal_put(obj, from, 2, 0));
        VSYM_CHECK_OK(vsym_signal_wait(obj, to, 2, 0));
    }
    VSYM_CHECK_STATUS(vsym_put_signal_nbi(obj, to, 0, sbuf, 64, sig, 16, 1, (vsym_signal_op_t)7),
                      VSYM_ERR_BAD_OP, "put_signal_nbi: unknown signal operation 7");
    VSYM_CHECK_STATUS(vsym_put_signal_nbi(obj, to, 1 << 16, sbuf, 64, sig, 16, 1,
                                          VSYM_SIGNAL_ADD),
                      VSYM_ERR_OUT_OF_BOUNDS, "put_signal_nbi");
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    VSYM_CHECK_OK(vsym_obj_free(src_obj));

    /* put_with_signal on a pad channel. */
    for (uint32_t round = 1; round <= 100; round++) {
        for (int i = 0; i < 1024; i++)
            buf[i] = round ^ ((uint32_t)i * 2654435761u) ^ (uint32_t)me;
        VSYM_CHECK_OK(vsym_put_with_signal(obj, to, 8192, buf, sizeof(buf), 3, 0));
        VSYM_CHECK_OK(vsym_signal_wait(obj, from, 3, 0));
        const uint32_t *got = (const uint32_t *)((const char *)vsym_obj_ptr(obj) + 8192);
        for (int i = 0; i < 1024; i++)
            VSYM_CHECK(got[i] == (round ^ ((uint32_t)i * 2654435761u) ^ (uint32_t)from),
                       "pad round %u word %d", round, i);
        VSYM_CHECK_OK(vsym_signal_put(obj, from, 4, 0));
        VSYM_CHECK_OK(vsym_signal_wait(obj, to, 4, 0));
    }

    /* Several channels at once: signal every peer on channels 5, 6, 7 (in rank order), consume
     * in the reverse order of channels and ranks: no signal lands on the wrong slot. */
    for (int ch = 5; ch <= 7; ch++)
        for (int r = 0; r < n; r++)
            if (r != me)
                VSYM_CHECK_OK(vsym_signal_put(obj, r, ch, 0));
    for (int ch = 7; ch >= 5; ch--)
        for (int r = n - 1; r >= 0; r--)
            if (r != me)
                VSYM_CHECK_OK(vsym_signal_wait(obj, r, ch, 0));

    /* Back-pressure: three signals from the previous rank on channel 6 arrive as exactly three
     * (the second and third wait until the earlier one is consumed); a fourth wait times out
     * naming the peer. */
    if (me == 0)
        for (int i = 0; i < 3; i++)
            VSYM_CHECK_OK(vsym_signal_put(obj, 1, 6, 0));
    if (me == 1) {
        for (int i = 0; i < 3; i++)
            VSYM_CHECK_OK(vsym_signal_wait(obj, 0, 6, 0));
        VSYM_CHECK_STATUS(vsym_signal_wait(obj, 0, 6, 0.2), VSYM_ERR_TIMED_OUT, "rank 0 (");
    }

    /* What a blocking put stages (returns without waiting for the transfer), per peer: every
     * put over shared memory is a copy; verbs stages up to its 8 KiB bounce size. */
    for (int r = 0; r < n; r++) {
        const char *tp = vsym_team_transport_of(world, r);
        size_t want = tp && strcmp(tp, "verbs") == 0 ? 8192 : SIZE_MAX;
        VSYM_CHECK(vsym_team_put_staged_max(world, r) == want,
                   "put_staged_max to rank %d (%s): %zu, expected %zu", r, tp ? tp : "?",
                   vsym_team_put_staged_max(world, r), want);
    }
    VSYM_CHECK(vsym_team_put_staged_max(world, n) == 0 && vsym_team_put_staged_max(NULL, 0) == 0,
               "put_staged_max of a rank outside the team or a NULL team is not 0");

    /* Barriers on different channels, many times. */
    for (int i = 0; i < 50; i++) {
        VSYM_CHECK_OK(vsym_signal_barrier(obj, i % 3, 0));
        VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    }
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    check_pad_zero(obj, n, channels);
    check_pad_zero(sig, n, channels);

    /* Bad channels and ranks. */
    VSYM_CHECK_STATUS(vsym_signal_put(obj, to, channels, 0), VSYM_ERR_BAD_CHANNEL, "channel");
    VSYM_CHECK_STATUS(vsym_signal_wait(obj, from, -1, 0), VSYM_ERR_BAD_CHANNEL, "channel -1");
    VSYM_CHECK_STATUS(vsym_signal_put(obj, n, 0, 0), VSYM_ERR_BAD_RANK, "outside the team");
    VSYM_CHECK_STATUS(vsym_signal_barrier(obj, channels + 3, 0), VSYM_ERR_BAD_CHANNEL, NULL);
    VSYM_CHECK_OK(vsym_obj_free(sig));
    VSYM_CHECK_OK(vsym_obj_free(obj));
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
