/* Warm starts through the caller's cache (see warm.h). */
#include "solver/warm.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "solver/pose.h"

/* Checksum of everything a cache holds but the checksum itself: the sum of
 * its 64-bit words (one vectorised add per pair of words: this runs twice
 * per warm query), avalanched (MurmurHash3's finaliser). Junk, a torn copy
 * or an edited field changes it but with odds of 2^-64. */
static unsigned long long cache_checksum(const sovc_cache *c) {
  enum { kWords = offsetof(sovc_cache, check) / sizeof(unsigned long long) };
  const unsigned char *bytes = (const unsigned char *)c;
  unsigned long long sum = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < kWords; ++i) {
    unsigned long long word;
    memcpy(&word, bytes + sizeof word * i, sizeof word);
    sum += word;
  }
  sum ^= sum >> 33;
  sum *= 0xff51afd7ed558ccdull;
  sum ^= sum >> 33;
  sum *= 0xc4ceb9fe1a85ec53ull;
  return sum ^ (sum >> 33);
}

/* Records the checksum of what the cache now holds. */
static void cache_seal(sovc_cache *c) {
  c->check = cache_checksum(c);
}

/* The shapes' parameters, the key of a cache's evaluations. */
static void shape_params(double out[7], const sovc_shape *S) {
  for (int i = 0; i < 3; ++i) out[i] = S->a[i];
  out[3] = S->eps1;
  out[4] = S->eps2;
  out[5] = S->taper[0];
  out[6] = S->taper[1];
}

/* See warm.h. */
sovc_warm *sovc_warm_init(sovc_warm *warm, const sovc_cache *cache, const sovc_shape *A,
                          const sovc_shape *B) {
  if (!cache) return NULL;
  warm->start = NULL;
  warm->balls = NULL;
  warm->have_last = warm->have_kept = warm->have_proved = 0;
  if (!cache->valid || !(cache->evaluated || cache->certified)) return warm;
  double key[14];
  shape_params(key, A);
  shape_params(key + 7, B);
  for (int i = 0; i < 14; ++i)
    if (key[i] != cache->params[i]) return warm;
  if (cache->evaluated) warm->start = cache->eval;
  if (cache->certified) warm->balls = cache->ball;
  return warm;
}

/* See warm.h. */
void sovc_warm_store(sovc_cache *cache, const sovc_warm *warm, const sovc_shape *A,
                     const sovc_shape *B) {
  cache->evaluated = warm && warm->have_last;
  cache->certified = warm && warm->have_kept;
  if (!cache->evaluated && !cache->certified) return;
  shape_params(cache->params, A);
  shape_params(cache->params + 7, B);
  if (cache->evaluated) memcpy(cache->eval, warm->last, sizeof cache->eval);
  if (cache->certified) memcpy(cache->ball, warm->kept, sizeof cache->ball);
}

/* See warm.h. */
void sovc_cache_store(sovc_cache *cache, const sovc_result *r, const sovc_pair *P,
                      const sovc_warm *warm) {
  /* The witnesses in the caller's lengths (as sovc_cache_set keeps them),
   * the evaluations and balls in the pair's (keyed by its shapes). */
  sovc_to_local(cache->pA_local, P->XA, r->pA);
  sovc_to_local(cache->pB_local, P->XB, r->pB);
  for (int i = 0; i < 3; ++i) {
    cache->pA_local[i] *= P->scale;
    cache->pB_local[i] *= P->scale;
  }
  sovc_rotate_t(cache->nA_local, P->XA->R, r->n);
  cache->valid = 1;
  sovc_warm_store(cache, warm, P->A, P->B);
  cache_seal(cache);
}

/* See warm.h. */
void sovc_cache_answer(const sovc_cache *cache, const sovc_pair *P, double pA[3], double pB[3],
                       double n[3]) {
  double xa[3], xb[3];
  for (int i = 0; i < 3; ++i) xa[i] = cache->pA_local[i] / P->scale;
  for (int i = 0; i < 3; ++i) xb[i] = cache->pB_local[i] / P->scale;
  sovc_to_world(pA, P->XA, xa);
  sovc_to_world(pB, P->XB, xb);
  sovc_rotate(n, P->XA->R, cache->nA_local);
}

/* See warm.h. */
void sovc_cache_set(sovc_cache *cache, const sovc_pose *XA, const sovc_pose *XB, const double pA[3],
                    const double pB[3]) {
  double n[3] = {pB[0] - pA[0], pB[1] - pA[1], pB[2] - pA[2]};
  const double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int i = 0; i < 3; ++i) n[i] = nn > 0 ? n[i] / nn : (i == 2);
  sovc_to_local(cache->pA_local, XA, pA);
  sovc_to_local(cache->pB_local, XB, pB);
  sovc_rotate_t(cache->nA_local, XA->R, n);
  cache->valid = 1;
  cache->evaluated = cache->certified = 0;
  cache_seal(cache);
}

/* See warm.h. */
int sovc_cache_intact(const sovc_cache *cache) {
  const int flags = cache->valid == 1 && (cache->evaluated == 0 || cache->evaluated == 1) &&
                    (cache->certified == 0 || cache->certified == 1);
  return flags && cache->check == cache_checksum(cache);
}

/* See warm.h. */
void sovc_cache_admit(sovc_cache *cache) {
  /* An empty cache (valid 0) is read no further. */
  if (cache->valid != 0 && !sovc_cache_intact(cache)) memset(cache, 0, sizeof *cache);
}
