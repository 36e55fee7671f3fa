/* Stop 35: what a copy into memory another core just read costs on this host, by the store kind.
 * Two processes pinned to CPUs 0 and 1 share a mapping; each round each copies LEN bytes of its
 * own into its half (copy-in: mode 0 memcpy, 1 non-temporal stores, 2 memcpy with prefetchw
 * ahead, 3 prefetchw of every line then memcpy), both sync, each copies the other's half out
 * (copy-out, memcpy), both sync; 2000 rounds, mean us of each part. Run next to
 * ../dev-2core-zen4-2026-11-27-stop33/c2c_probe.c or pp-style line ping-pong to know the CPUs' state.
 *   gcc -O2 -mavx2 -o /tmp/publish_probe publish_probe.c && /tmp/publish_probe 65536 1 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>
#include <immintrin.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <stdatomic.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);}
static void ntcopy(void *d, const void *s, size_t n){ char *dd=d; const char*ss=s; for(size_t i=0;i<n;i+=64){ __m256i a=_mm256_loadu_si256((const __m256i*)(ss+i)); __m256i b=_mm256_loadu_si256((const __m256i*)(ss+i+32)); _mm256_stream_si256((__m256i*)(dd+i),a);_mm256_stream_si256((__m256i*)(dd+i+32),b);} _mm_sfence(); }
static void pfcopy(void *d, const void *s, size_t n){ char *dd=d; const char*ss=s; for(size_t i=0;i<n;i+=64){ if(i+1024<n) __builtin_prefetch(dd+i+1024,1,3); __m256i a=_mm256_loadu_si256((const __m256i*)(ss+i)); __m256i b=_mm256_loadu_si256((const __m256i*)(ss+i+32)); _mm256_storeu_si256((__m256i*)(dd+i),a);_mm256_storeu_si256((__m256i*)(dd+i+32),b);} }
static void pfall(void *d, const void *s, size_t n){ char *dd=d; for(size_t i=0;i<n;i+=64) __builtin_prefetch(dd+i,1,3); memcpy(d,s,n); }
typedef void (*cp_t)(void*,const void*,size_t);
int main(int argc,char**argv){
  size_t len = argc>1? strtoul(argv[1],0,0):65536;
  int mode = argc>2? atoi(argv[2]):0;
  cp_t cpin = mode==0? (cp_t)memcpy : mode==1? ntcopy : mode==2? pfcopy : pfall;
  char *sh = mmap(0, 4*len+8192, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_ANONYMOUS, -1, 0);
  _Atomic long *flag = (_Atomic long*)sh; _Atomic long *flag2 = (_Atomic long*)(sh+2048); char *buf = sh+4096;
  int it=2000;
  pid_t p = fork(); int me = p==0;
  pin(me);
  char *priv = aligned_alloc(4096,len); memset(priv,3,len); char *d = aligned_alloc(4096,len); memset(d,0,len);
  _Atomic long *mine = me? flag2:flag, *other = me? flag:flag2;
  double tin=0,tout=0;
  for(long i=0;i<it;i++){
    double t0=now();
    cpin(buf + me*2*len, priv, len);
    double t1=now();
    atomic_store(mine, 2*i+1); while(atomic_load(other) < 2*i+1);
    double t2=now();
    memcpy(d, buf + (1-me)*2*len, len);
    double t3=now();
    atomic_store(mine, 2*i+2); while(atomic_load(other) < 2*i+2);
    tin+=t1-t0; tout+=t3-t2;
  }
  if (p==0) _exit(0);
  waitpid(p,0,0);
  printf("mode %d len %zu: copy-in %.2f us copy-out %.2f us\n", mode, len, tin/it*1e6, tout/it*1e6);
  return 0;
}
