/* Stop 50: the library's non-temporal copy loop (lib/util/copy.c's copy_nt: 16-byte streaming
 * stores, two lines a step) without prefetch (nt-nopf), with prefetchnta ten lines ahead as it
 * had on every CPU (nt-pfnta), with prefetcht0 (nt-pft0), and glibc's memcpy, 4-64 MiB, best of
 * 15. Build and run: gcc -O2 -o /tmp/nt nt_prefetch.c && /tmp/nt */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static void nt_pf(char*d,const char*s,size_t len,int pf){
  while(len>=128){ if(pf==1){__builtin_prefetch(s+640,0,0);__builtin_prefetch(s+704,0,0);} else if(pf==2){__builtin_prefetch(s+640,0,3);__builtin_prefetch(s+704,0,3);}
    __m128i v[8]; for(int k=0;k<8;k++) v[k]=_mm_loadu_si128((const __m128i*)(s+16*k));
    for(int k=0;k<8;k++) _mm_stream_si128((__m128i*)(d+16*k),v[k]); d+=128;s+=128;len-=128;}
  _mm_sfence(); }
int main(){ size_t max=64<<20; char*s=aligned_alloc(4096,max),*d=aligned_alloc(4096,max); memset(s,1,max); memset(d,2,max);
 for(size_t z=4<<20; z<=max; z*=2) for(int pf=0;pf<4;pf++){ double best=1e9; for(int i=0;i<15;i++){ double t0=now(); if(pf==3) memcpy(d,s,z); else nt_pf(d,s,z,pf); double t=now()-t0; if(t<best)best=t;}
   printf("%3zu MiB %s %.2f GB/s\n", z>>20, pf==0?"nt-nopf ":pf==1?"nt-pfnta":pf==2?"nt-pft0 ":"memcpy  ", z/best/1e9);} }
