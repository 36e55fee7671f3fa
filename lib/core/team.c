/* Teams: the world, the node, strided splits; the bootstrap exchange over a team. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core_internal.h"

vsym_status_t vsym_core_exchange(vsym_team_t *team, const void *in, size_t len, void *out)
{
    char tag[80];
    /* Every member makes the same sequence of exchanges on a team, so (team id, sequence) names
     * the same exchange on every member without any agreement step. */
    if (snprintf(tag, sizeof(tag), "%s.%lu", team->id, team->seq++) >= (int)sizeof(tag))
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "exchange: team id too long");
    return vsym_boot_allgather(&team->ctx->boot, team->members, team->size, tag, in, len, out);
}

vsym_status_t vsym_core_team_create(vsym_ctx_t *ctx, const int *members, int size, const char *id,
                                    vsym_team_t **team_p)
{
    vsym_team_t *team = calloc(1, sizeof(*team));
    vsym_status_t st;
    int me = ctx->boot.rank;

    if (team == NULL) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "team: out of memory");
    team->members = malloc((size_t)size * sizeof(int));
    if (team->members == NULL) {
        free(team);
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "team: out of memory");
    }
    memcpy(team->members, members, (size_t)size * sizeof(int));
    team->ctx = ctx;
    team->size = size;
    team->rank = -1;
    if (snprintf(team->id, sizeof(team->id), "%s", id) >= (int)sizeof(team->id)) {
        free(team->members);
        free(team);
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "team: id %s too long", id);
    }
    for (int r = 0; r < size; r++) {
        int w = members[r];
        if (w == me) team->rank = r;
        if (ctx->tp_of[w] != NULL && ctx->tp_of[w] == ctx->verbs) team->uses_verbs = 1;
        int seen = 0;
        for (int q = 0; q < r && !seen; q++)
            seen = ctx->peers[members[q]].node == ctx->peers[w].node;
        if (!seen) team->num_nodes++;
    }
    if ((st = vsym_core_obj_create(team, 0, &team->sync)) != VSYM_OK) {
        free(team->members);
        free(team);
        return st;
    }
    *team_p = team;
    return VSYM_OK;
}

void vsym_core_team_release(vsym_team_t *team)
{
    if (team == NULL) return;
    vsym_core_obj_release(team->xchg);
    vsym_core_obj_release(team->sync);
    free(team->members);
    free(team);
}

VSYM_API vsym_team_t *vsym_team_world(vsym_ctx_t *ctx)
{
    return ctx ? ctx->world : NULL;
}

VSYM_API vsym_team_t *vsym_team_node(vsym_ctx_t *ctx)
{
    return ctx ? ctx->node : NULL;
}

VSYM_API vsym_ctx_t *vsym_team_ctx(const vsym_team_t *team)
{
    return team ? team->ctx : NULL;
}

VSYM_API int vsym_team_rank(const vsym_team_t *team)
{
    return team ? team->rank : -1;
}

VSYM_API int vsym_team_size(const vsym_team_t *team)
{
    return team ? team->size : 0;
}

VSYM_API int vsym_team_world_rank(const vsym_team_t *team, int r)
{
    if (team == NULL || r < 0 || r >= team->size) return -1;
    return team->members[r];
}

VSYM_API int vsym_team_node_of(const vsym_team_t *team, int r)
{
    if (team == NULL || r < 0 || r >= team->size) return -1;
    return team->ctx->peers[team->members[r]].node;
}

VSYM_API int vsym_team_num_nodes(const vsym_team_t *team)
{
    return team ? team->num_nodes : 0;
}

VSYM_API const char *vsym_team_transport_of(const vsym_team_t *team, int r)
{
    vsym_tp_t *tp;
    if (team == NULL || r < 0 || r >= team->size) return NULL;
    tp = team->ctx->tp_of[team->members[r]];
    return tp ? tp->ops->name : NULL;
}

VSYM_API size_t vsym_team_put_staged_max(const vsym_team_t *team, int r)
{
    if (team == NULL || r < 0 || r >= team->size) return 0;
    const vsym_tp_t *tp = team->ctx->tp_of[team->members[r]];
    return tp ? tp->ops->put_staged_max : 0;
}

VSYM_API int vsym_team_process_copy(const vsym_team_t *team, int r)
{
    if (team == NULL || r < 0 || r >= team->size) return 0;
    const vsym_tp_t *tp = team->ctx->tp_of[team->members[r]];
    return tp != NULL && tp->process_copy;
}

VSYM_API vsym_status_t vsym_team_split_strided(vsym_team_t *parent, int start, int stride, int size,
                                               vsym_team_t **team_p)
{
    int *members;
    char id[48];
    int in = 0;
    vsym_status_t st;

    if (parent == NULL || team_p == NULL)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "split_strided: NULL parent or team_p");
    if (size < 1 || start < 0 || start >= parent->size || stride < 1 ||
        (long)start + (long)(size - 1) * stride >= parent->size)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM,
                         "split_strided: start %d, stride %d, size %d leave the parent team of "
                         "%d ranks",
                         start, stride, size, parent->size);
    /* Every parent rank counts the split, members or not, so that child ids stay the same on
     * every rank of the parent. */
    if (snprintf(id, sizeof(id), "%s.%lu", parent->id, parent->children++) >= (int)sizeof(id))
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "split_strided: teams nested too deeply");
    members = malloc((size_t)size * sizeof(int));
    if (members == NULL) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "split_strided: out of memory");
    for (int i = 0; i < size; i++) {
        members[i] = parent->members[start + i * stride];
        if (start + i * stride == parent->rank) in = 1;
    }
    if (!in) {
        free(members);
        *team_p = NULL;
        return VSYM_OK;
    }
    st = vsym_core_team_create(parent->ctx, members, size, id, team_p);
    free(members);
    return st;
}

VSYM_API vsym_status_t vsym_team_destroy(vsym_team_t *team)
{
    vsym_status_t st;
    if (team == NULL) return VSYM_OK;
    if (team == team->ctx->world || team == team->ctx->node)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "team_destroy: the world and node teams "
                                                 "belong to the context");
    st = vsym_team_barrier(team, 0);
    vsym_core_team_release(team);
    return st;
}

/* vsym_team_exchange goes through the team's own memory, not the bootstrap: a PMIx fence per
 * exchange took 1-7 ms at 2-4 ranks on the 2-core host, growing with every exchange made (Open
 * MPI 4.1's server keeps every key), and its server's threads took cores from ranks being
 * timed. Each member has two halves of team_size slots; a round writes this rank's slot in every
 * member's half (round parity), then the team barrier (quiet first) makes them visible. A rank
 * rewrites a half two rounds later, after the barrier of the round between, which every member
 * enters only after reading that half. Every slot starts with the exchange's length, so a
 * mismatch shows on every member in the first round, and the round's number, so a slot a failed
 * put left stale is an error naming its member, not old data. */
#define XCHG_SLOT 1024
#define XCHG_HEAD (2 * sizeof(uint64_t))
#define XCHG_PAYLOAD (XCHG_SLOT - XCHG_HEAD)

static vsym_status_t xchg_round(vsym_team_t *team, const char *slot, size_t slot_len, char **half_p)
{
    int n = team->size;
    size_t half = (size_t)(team->xchg_rounds++ & 1) * (size_t)n * XCHG_SLOT;
    size_t mine = half + (size_t)team->rank * XCHG_SLOT;
    vsym_status_t st = VSYM_OK;
    for (int i = 1; i < n && st == VSYM_OK; i++)
        st = vsym_put(team->xchg, (team->rank + i) % n, mine, slot, slot_len);
    memcpy((char *)team->xchg->ptr + mine, slot, slot_len);
    /* Every member enters the barrier, even after a failed put, so that none waits for it. */
    vsym_status_t bst = vsym_team_barrier(team, 0);
    *half_p = (char *)team->xchg->ptr + half;
    return st != VSYM_OK ? st : bst;
}

VSYM_API vsym_status_t vsym_team_exchange(vsym_team_t *team, const void *in, size_t len, void *out)
{
    if (team == NULL || (len > 0 && (in == NULL || out == NULL)))
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "team_exchange: NULL argument");
    int n = team->size;
    if (n == 1) {
        if (len > 0) memmove(out, in, len);
        return VSYM_OK;
    }
    if (team->xchg == NULL)
        VSYM_TRY(vsym_core_obj_create(team, 2 * (size_t)n * XCHG_SLOT, &team->xchg));
    char slot[XCHG_SLOT], *half;
    const uint64_t want = len;
    size_t done = 0;
    do {
        size_t part = len - done < XCHG_PAYLOAD ? len - done : XCHG_PAYLOAD;
        const uint64_t round = team->xchg_rounds;
        memcpy(slot, &want, sizeof(want));
        memcpy(slot + sizeof(want), &round, sizeof(round));
        if (part > 0) memcpy(slot + XCHG_HEAD, (const char *)in + done, part);
        VSYM_TRY(xchg_round(team, slot, XCHG_HEAD + part, &half));
        for (int r = 0; r < n; r++) {
            const char *s = half + (size_t)r * XCHG_SLOT;
            uint64_t got, got_round;
            char who[160];
            memcpy(&got, s, sizeof(got));
            memcpy(&got_round, s + sizeof(got), sizeof(got_round));
            if (got_round != round)
                return VSYM_FAIL(VSYM_ERR_TRANSPORT,
                                 "team_exchange: no data from %s in round %llu (its slot holds "
                                 "round %llu)",
                                 vsym_core_peer_name(team, r, who, sizeof(who)),
                                 (unsigned long long)round, (unsigned long long)got_round);
            if (got != want)
                return VSYM_FAIL(VSYM_ERR_MISMATCH,
                                 "team_exchange: %llu bytes from %s, %zu from this rank (team "
                                 "rank %d)",
                                 (unsigned long long)got,
                                 vsym_core_peer_name(team, r, who, sizeof(who)), len, team->rank);
            if (part > 0) memcpy((char *)out + (size_t)r * len + done, s + XCHG_HEAD, part);
        }
        done += part;
    } while (done < len);
    return VSYM_OK;
}

VSYM_API vsym_status_t vsym_team_barrier(vsym_team_t *team, double timeout_s)
{
    vsym_status_t st;
    if (team == NULL) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "team_barrier: NULL team");
    if ((st = vsym_quiet(team->ctx)) != VSYM_OK) return st;
    return vsym_signal_barrier(team->sync, 0, timeout_s);
}
