/* First-fit offset allocator for the symmetric heap and the internal region. */
#include <stdlib.h>
#include <string.h>
#include "core/core_internal.h"

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

size_t vsym_core_range_find(const vsym_core_range_t *r, size_t min_off, size_t len, size_t align)
{
    size_t cand = align_up(min_off > r->base ? min_off : r->base, align);
    size_t end = r->base + r->size;
    if (len == 0)
        len = 1; /* every object occupies a distinct offset */
    for (size_t i = 0; i < r->count; i++) {
        if (r->off[i] + r->len[i] <= cand)
            continue;
        if (cand + len <= r->off[i])
            break;
        cand = align_up(r->off[i] + r->len[i], align);
    }
    if (cand > end || len > end - cand)
        return SIZE_MAX;
    return cand;
}

vsym_status_t vsym_core_range_insert(vsym_core_range_t *r, size_t off, size_t len)
{
    size_t i = 0;
    if (len == 0)
        len = 1;
    if (r->count == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        size_t *o = realloc(r->off, cap * sizeof(*o));
        if (o == NULL)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "allocator: out of memory");
        r->off = o;
        size_t *l = realloc(r->len, cap * sizeof(*l));
        if (l == NULL)
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "allocator: out of memory");
        r->len = l;
        r->cap = cap;
    }
    while (i < r->count && r->off[i] < off)
        i++;
    memmove(&r->off[i + 1], &r->off[i], (r->count - i) * sizeof(size_t));
    memmove(&r->len[i + 1], &r->len[i], (r->count - i) * sizeof(size_t));
    r->off[i] = off;
    r->len[i] = len;
    r->count++;
    return VSYM_OK;
}

void vsym_core_range_remove(vsym_core_range_t *r, size_t off)
{
    for (size_t i = 0; i < r->count; i++) {
        if (r->off[i] == off) {
            memmove(&r->off[i], &r->off[i + 1], (r->count - i - 1) * sizeof(size_t));
            memmove(&r->len[i], &r->len[i + 1], (r->count - i - 1) * sizeof(size_t));
            r->count--;
            return;
        }
    }
}

void vsym_core_range_destroy(vsym_core_range_t *r)
{
    free(r->off);
    free(r->len);
    memset(r, 0, sizeof(*r));
}
