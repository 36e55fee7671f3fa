/* Stop 52: the per-call cost of vsym_fused_run through libvsym.so, one rank (no launcher),
 * an all-reduce of 2 floats, the baseline and AUTO, 2 million calls each, three times. Built as
 * gcc -O2 -Ilib/include so_calls.c -Lbuild/lib -lvsym -Wl,-rpath,$PWD/build/lib; run with
 * LD_LIBRARY_PATH set to a folder holding another build's libvsym.so.0 to time that one. */
#include <stdio.h>
#include <time.h>
#include <vsym/vsym.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(void){
  vsym_ctx_t *ctx; if (vsym_init(&ctx)) return 1;
  vsym_fused_t *f; if (vsym_fused_create(ctx, NULL, &f)) return 2;
  float in[16]={0}, out[16];
  for (int rep=0; rep<3; rep++)
  for (int m=0;m<2;m++){
    vsym_fused_mode_t mode = m? VSYM_FUSED_AUTO : VSYM_FUSED_BASELINE;
    double t0=now(); int N=2000000;
    for (int i=0;i<N;i++) if (vsym_fused_run(f, VSYM_FUSED_ALLREDUCE, mode, in, out, 2, VSYM_DTYPE_F32)) return 3;
    printf("%s %.1f ns\n", m?"auto":"base", (now()-t0)/N*1e9);
  }
  vsym_fused_destroy(f); vsym_finalize(ctx); return 0;
}
