/* Batch queries (sov_batch_distance, sov_batch_collide): the pairs of a
 * batch shared out among POSIX threads that the call creates and joins.
 * Each pair goes through the public single-pair function, so its answer is
 * that function's, bit for bit, whichever thread takes it. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "c_api/api_check.h"
#include "superovoid/superovoid.h"

/* Stack of each thread the call creates: 32 times the 32 KB a query takes
 * with its work memory given (superovoid.h), room for sanitizer builds. */
#define SOVC_BATCH_STACK ((size_t)1 << 20)
/* Most threads one call creates: beyond any core count worth a batch. */
#define SOVC_BATCH_MAX_THREADS 1024
/* Pairs a thread takes at a time: small enough to even out pairs of very
 * different cost (0.5 us to 100 us), large enough to keep the shared
 * counter cold. */
#define SOVC_BATCH_MAX_CHUNK 64

/* What every thread of one call shares. */
typedef struct batch_shared {
  const sov_batch *batch;
  sov_result *results;  /* distance batches */
  int *colliding;       /* collide batches */
  int *statuses;
  size_t chunk;
  atomic_size_t next;   /* first pair no thread has taken yet */
} batch_shared;

/* One thread created by the call: its options carry its own work memory. */
typedef struct batch_worker {
  batch_shared *shared;
  sov_options options;
  pthread_t id;
} batch_worker;

/* Status of pair k, answered into the shared outputs. */
static int answer_pair(const batch_shared *s, size_t k, const sov_options *options) {
  const sov_batch *b = s->batch;
  const size_t ia = b->index_a[k], ib = b->index_b[k];
  if (ia >= b->n_shapes || ib >= b->n_shapes) return SOV_ERR_INDEX;
  sov_cache *cache = b->caches ? &b->caches[k] : NULL;
  if (s->results)
    return sov_distance(&s->results[k], &b->shapes[ia], &b->poses_a[k], &b->shapes[ib],
                        &b->poses_b[k], options, cache);
  return sov_collide(&s->colliding[k], &b->shapes[ia], &b->poses_a[k], &b->shapes[ib],
                     &b->poses_b[k], options, cache);
}

/* Takes chunks of pairs until none is left. */
static void answer_chunks(batch_shared *s, const sov_options *options) {
  const size_t count = s->batch->count;
  for (;;) {
    const size_t first = atomic_fetch_add_explicit(&s->next, s->chunk, memory_order_relaxed);
    if (first >= count) return;
    const size_t end = count - first < s->chunk ? count : first + s->chunk;
    for (size_t k = first; k < end; ++k) s->statuses[k] = answer_pair(s, k, options);
  }
}

/* Entry point of a created thread. */
static void *worker_main(void *arg) {
  batch_worker *w = arg;
  answer_chunks(w->shared, &w->options);
  return NULL;
}

/* Threads to use: the request (0: online cores), at most one per pair. */
static int thread_target(int threads, size_t count) {
  long n = threads;
  if (n == 0) n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  if (n > SOVC_BATCH_MAX_THREADS) n = SOVC_BATCH_MAX_THREADS;
  if ((size_t)n > count) n = count > 0 ? (long)count : 1;
  return (int)n;
}

/* The call's arguments, checked before any pair. */
static int check_call(const void *out, const int *statuses, const sov_batch *b,
                      const sov_options *options, int threads) {
  if (!out || !statuses || !b) return SOV_ERR_NULL;
  if (b->count > 0 && (!b->index_a || !b->index_b || !b->poses_a || !b->poses_b))
    return SOV_ERR_NULL;
  if (b->n_shapes > 0 && !b->shapes) return SOV_ERR_NULL;
  if (threads < 0) return SOV_ERR_OPTION;
  return options ? sovc_api_check_options(options) : SOV_OK;
}

/* One heap block for a call: `workers` workers, then `works` work memories
 * of sov_work_size() bytes (each worker's, then the calling thread's);
 * NULL when it cannot be had. */
static unsigned char *alloc_block(size_t workers, size_t works) {
  const size_t work = sov_work_size();
  const size_t head = (workers * sizeof(batch_worker) + 15) / 16 * 16;
  if (works > (SIZE_MAX - head) / work) return NULL;
  return malloc(head + works * work);
}

/* Work memory number i of a block of `workers` workers. */
static void *block_work(unsigned char *block, size_t workers, size_t i) {
  const size_t head = (workers * sizeof(batch_worker) + 15) / 16 * 16;
  return block + head + i * sov_work_size();
}

/* Starts the workers of block, each with base's options and its own work
 * memory and stack; returns how many started (they start in order, and the
 * first that fails stops the rest: its pairs go to the others). */
static int start_workers(unsigned char *block, size_t workers, batch_shared *s,
                         const sov_options *base) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return 0;
  int started = 0;
  batch_worker *w = (batch_worker *)(void *)block;
  if (pthread_attr_setstacksize(&attr, SOVC_BATCH_STACK) == 0) {
    for (size_t i = 0; i < workers; ++i, ++started) {
      w[i].shared = s;
      w[i].options = *base;
      w[i].options.work = block_work(block, workers, i);
      w[i].options.work_size = sov_work_size();
      if (pthread_create(&w[i].id, &attr, worker_main, &w[i]) != 0) break;
    }
  }
  pthread_attr_destroy(&attr);
  return started;
}

/* Runs every pair on n threads at most (the calling one among them); sets
 * *used to the threads that ran. */
static void run_pairs(int *used, batch_shared *s, const sov_options *options, int n) {
  sov_options base;
  if (options)
    base = *options;
  else
    sov_options_default(&base);
  const size_t total = s->batch->count, per = total / ((size_t)n * 8);
  s->chunk = per < 1 ? 1 : per > SOVC_BATCH_MAX_CHUNK ? SOVC_BATCH_MAX_CHUNK : per;
  atomic_init(&s->next, 0);
  size_t workers = (size_t)(n - 1);
  const size_t works = workers + (base.work ? 0 : 1);
  unsigned char *block = works ? alloc_block(workers, works) : NULL;
  if (!block) workers = 0; /* the calling thread alone, work on its stack */
  const int started = block ? start_workers(block, workers, s, &base) : 0;
  if (block && !base.work) {
    base.work = block_work(block, workers, workers);
    base.work_size = sov_work_size();
  }
  answer_chunks(s, &base);
  batch_worker *w = (batch_worker *)(void *)block;
  for (int i = 0; i < started; ++i) pthread_join(w[i].id, NULL);
  free(block);
  *used = 1 + started;
}

/* The report of a finished call; returns the call's status. */
static int finish(sov_batch_report *report, const int *statuses, size_t count, int used) {
  size_t failed = 0, first = count;
  for (size_t k = 0; k < count; ++k)
    if (statuses[k] != SOV_OK && failed++ == 0) first = k;
  if (report) {
    report->failed = failed;
    report->first_failed = first;
    report->threads = used;
  }
  return failed ? statuses[first] : SOV_OK;
}

/* Checks the call, answers every pair, reports. */
static int run_batch(sov_result *results, int *colliding, int *statuses,
                     sov_batch_report *report, const sov_batch *batch,
                     const sov_options *options, int threads) {
  const void *out = results ? (const void *)results : (const void *)colliding;
  const int st = check_call(out, statuses, batch, options, threads);
  if (st != SOV_OK) return st;
  batch_shared s;
  s.batch = batch;
  s.results = results;
  s.colliding = colliding;
  s.statuses = statuses;
  int used = 1; /* an empty batch: nothing to allocate or start */
  if (batch->count > 0) run_pairs(&used, &s, options, thread_target(threads, batch->count));
  return finish(report, statuses, batch->count, used);
}

/* Signed distance of every pair. */
int sov_batch_distance(sov_result *results, int *statuses, sov_batch_report *report,
                       const sov_batch *batch, const sov_options *options, int threads) {
  if (!results) return SOV_ERR_NULL;
  return run_batch(results, NULL, statuses, report, batch, options, threads);
}

/* Overlap test of every pair. */
int sov_batch_collide(int *colliding, int *statuses, sov_batch_report *report,
                      const sov_batch *batch, const sov_options *options, int threads) {
  if (!colliding) return SOV_ERR_NULL;
  return run_batch(NULL, colliding, statuses, report, batch, options, threads);
}
