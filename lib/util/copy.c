/* The copy routine of the shared-memory path. */
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include "util/util.h"

#if defined(__x86_64__)
/* Non-temporal stores write whole lines to memory without first reading them into the cache
 * (no read-for-ownership), which saves a third of the memory traffic of a large copy. They are
 * weakly ordered: the sfence makes them visible before any later store (e.g. a signal). */
static void copy_nt(void *dst, const void *src, size_t len)
{
    char *d = dst;
    const char *s = src;
    size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    if (head > len)
        head = len;
    memcpy(d, s, head);
    d += head;
    s += head;
    len -= head;
    while (len >= 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + 48));
        _mm_stream_si128((__m128i *)(void *)d, a);
        _mm_stream_si128((__m128i *)(void *)(d + 16), b);
        _mm_stream_si128((__m128i *)(void *)(d + 32), c);
        _mm_stream_si128((__m128i *)(void *)(d + 48), e);
        d += 64;
        s += 64;
        len -= 64;
    }
    _mm_sfence();
    memcpy(d, s, len);
}
#endif

void vsym_util_copy(void *dst, const void *src, size_t len)
{
#if defined(__x86_64__)
    size_t threshold = vsym_config_size(VSYM_CFG_NT_THRESHOLD);
    if (threshold != 0 && len >= threshold) {
        copy_nt(dst, src, len);
        return;
    }
#endif
    memcpy(dst, src, len);
}
