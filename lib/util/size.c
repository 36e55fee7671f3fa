/* The one size parser ("4K", "1M", "1G") and formatter of the project. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "util/util.h"

vsym_status_t vsym_util_parse_size(const char *text, size_t *size_p)
{
    char *end;
    unsigned long long value;
    size_t shift = 0;

    if (text == NULL || *text == '\0')
        return vsym_util_fail_quiet(VSYM_ERR_BAD_SIZE, "empty size");
    while (isspace((unsigned char)*text))
        text++;
    if (!isdigit((unsigned char)*text))
        return vsym_util_fail_quiet(VSYM_ERR_BAD_SIZE, "bad size '%s': not a number", text);
    errno = 0;
    value = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return vsym_util_fail_quiet(VSYM_ERR_BAD_SIZE, "bad size '%s': too large", text);
    switch (toupper((unsigned char)*end)) {
    case '\0':
        break;
    case 'K':
        shift = 10;
        break;
    case 'M':
        shift = 20;
        break;
    case 'G':
        shift = 30;
        break;
    case 'T':
        shift = 40;
        break;
    case 'B':
        break;
    default:
        return vsym_util_fail_quiet(VSYM_ERR_BAD_SIZE, "bad size '%s': unknown unit", text);
    }
    if (*end != '\0') {
        const char *suffix = end + 1;
        if (toupper((unsigned char)*end) == 'B')
            suffix = end + 1;
        else if (strcasecmp(suffix, "") != 0 && strcasecmp(suffix, "B") != 0 &&
                 strcasecmp(suffix, "iB") != 0)
            return vsym_util_fail_quiet(VSYM_ERR_BAD_SIZE, "bad size '%s': unknown unit", text);
        else
            suffix = "";
        if (*suffix != '\0')
            return vsym_util_fail_quiet(VSYM_ERR_BAD_SIZE, "bad size '%s': unknown unit", text);
    }
    if (shift && value > (SIZE_MAX >> shift))
        return vsym_util_fail_quiet(VSYM_ERR_BAD_SIZE, "bad size '%s': too large", text);
    *size_p = (size_t)(value << shift);
    return VSYM_OK;
}

const char *vsym_util_format_size(size_t bytes, char *buf, size_t len)
{
    static const char units[] = "KMGT";
    int u = -1;
    size_t v = bytes;

    while (v >= 1024 && (v % 1024) == 0 && u < 3) {
        v /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(buf, len, "%zu", bytes);
    else
        snprintf(buf, len, "%zu%c", v, units[u]);
    return buf;
}
