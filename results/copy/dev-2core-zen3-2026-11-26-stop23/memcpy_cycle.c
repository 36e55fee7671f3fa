#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <time.h>
#include <pthread.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static size_t N=8<<20; static volatile int stop;
static void *helper(void*a){char*s=malloc(N),*d=malloc(N);memset(s,1,N);memset(d,2,N);while(!stop)memcpy(d,s,N);return 0;}
static double med(double*v,int n){for(int i=0;i<n;i++)for(int j=i+1;j<n;j++)if(v[j]<v[i]){double t=v[i];v[i]=v[j];v[j]=t;}return v[n/2];}
int main(int argc,char**argv){
  int loaded=argc>1;
  pthread_t th; if(loaded)pthread_create(&th,0,helper,0);
  char*src=malloc(N); memset(src,3,N);
  char*anon=malloc(N); memset(anon,0,N);
  int fd=memfd_create("x",0); ftruncate(fd,64<<20);
  char*shm=mmap(0,64<<20,PROT_READ|PROT_WRITE,MAP_SHARED,fd,0); memset(shm,0,N);
  char*shm2=mmap(0,64<<20,PROT_READ|PROT_WRITE,MAP_SHARED,fd,0); /* second mapping like a peer's */
  memset(shm2,0,N);
  double a[30],b[30],c[30];
  for(int i=0;i<30;i++){double t=now();memcpy(anon,src,N);a[i]=now()-t;t=now();memcpy(shm,src,N);b[i]=now()-t;t=now();memcpy(shm2,src,N);c[i]=now()-t;}
  printf("loaded=%d anon %.0f us  shm %.0f us shm2 %.0f\n",loaded,med(a,30),med(b,30),med(c,30));
  stop=1; if(loaded)pthread_join(th,0); return 0;}
