/* Double-buffered exchange through the core, as the collectives do it: each phase a rank
 * writes its half of a scratch object, joins a signal barrier, and reads every peer's half with
 * blocking gets (into malloc'd memory and into the heap). Over verbs this checks that a get
 * returns the data of the current phase (barrier ordering, bounce copies), at sizes around the
 * inline, bounce and MTU boundaries. Any transport; meant for VSYM_TRANSPORT=verbs. */
#include <stdint.h>
#include <stdlib.h>
#include "harness.h"

#define CHUNK 4096
#define PHASES 400

static uint8_t pat(int rank, int phase, size_t i)
{
    return (uint8_t)(rank * 13 + phase * 7 + (int)i);
}

int main(void)
{
    vsym_ctx_t *ctx;
    vsym_obj_t *scratch, *heap;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    VSYM_CHECK_OK(vsym_alloc(world, 2 * CHUNK, &scratch));
    VSYM_CHECK_OK(vsym_alloc(world, (size_t)n * CHUNK, &heap));
    char *land = malloc((size_t)n * CHUNK);
    char *mine = vsym_obj_ptr(scratch);
    static const size_t lens[] = {CHUNK, 1906, 8, 300, 1025, 2048};
    for (int phase = 0; phase < PHASES; phase++) {
        size_t region = (size_t)(phase & 1) * CHUNK;
        size_t len = lens[phase % 6];
        for (size_t i = 0; i < CHUNK; i++)
            mine[region + i] = (char)pat(me, phase, i);
        VSYM_CHECK_OK(vsym_signal_barrier(scratch, 0, 0));
        for (int k = 1; k < n; k++) {
            int r = (me + k) % n;
            char *dst = (phase & 2) ? (char *)vsym_obj_ptr(heap) + (size_t)r * CHUNK
                                    : land + (size_t)r * CHUNK;
            VSYM_CHECK_OK(vsym_get(scratch, r, region, dst, len));
            for (size_t i = 0; i < len; i++)
                VSYM_CHECK((uint8_t)dst[i] == pat(r, phase, i),
                           "phase %d len %zu from rank %d: byte %zu is 0x%02x, want 0x%02x "
                           "(phase %d's?)",
                           phase, len, r, i, (uint8_t)dst[i], pat(r, phase, i),
                           (uint8_t)dst[i] == pat(r, phase - 2, i) ? phase - 2 : -1);
        }
    }
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    free(land);
    VSYM_CHECK_OK(vsym_obj_free(heap));
    VSYM_CHECK_OK(vsym_obj_free(scratch));
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
