/* vsym: the whole public interface. */
#ifndef VSYM_H
#define VSYM_H
#include <vsym/status.h>
#include <vsym/info.h>
#include <vsym/core.h>
#include <vsym/coll.h>
#include <vsym/copy.h>
#include <vsym/reshard.h>
#endif
