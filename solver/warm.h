/* Warm starts: what a query takes from the caller's cache (the previous
 * answer, and the default method's evaluations and inner balls where they
 * belong to these shapes) and what it leaves there for the next query. */
#ifndef SOLVER_WARM_H
#define SOLVER_WARM_H

#include "solver/types.h"

/* A warm query's cached evaluations and inner balls, and the answer's for
 * the cache. */
typedef struct sovc_warm {
  const sovc_cache_eval *start;      /* the cache's, if they belong to these shapes */
  const sovc_cache_ball *balls;      /* the cache's, if they belong to these shapes */
  sovc_cache_eval last[2];           /* where the answer's position chart last evaluated */
  int have_last;                     /* 1 if last belongs to the answer */
  sovc_cache_ball kept[2];           /* inner balls that proved the answer */
  int have_kept;                     /* 1 if kept belongs to the answer */
  double proved_pA[3], proved_pB[3]; /* an answer's witnesses the cache's balls proved */
  int have_proved;                   /* 1 if proved_pA, proved_pB hold one */
} sovc_warm;

/* Take the cache's evaluations and inner balls (if any, and computed for
 * shapes with A's and B's parameters); returns warm, or NULL without a
 * cache (nowhere to keep the answer's: the solve skips them). */
sovc_warm *sovc_warm_init(sovc_warm *warm, const sovc_cache *cache, const sovc_shape *A,
                          const sovc_shape *B);

/* Store the shapes' parameters and, if warm has them, the answer's
 * evaluations and inner balls in the cache (else mark it as holding
 * none). */
void sovc_warm_store(sovc_cache *cache, const sovc_warm *warm, const sovc_shape *A,
                     const sovc_shape *B);

/* Store answer r in each body's frame, with the default method's
 * evaluations and inner balls from warm (NULL: none), and seal the cache. */
void sovc_cache_store(sovc_cache *cache, const sovc_result *r, const sovc_pair *P,
                      const sovc_warm *warm);

/* The cache's answer (sovc_cache_store's) for the pair P at its current
 * poses: the witnesses carried by each body's motion, in P's frame, and
 * the normal carried by A's. */
void sovc_cache_answer(const sovc_cache *cache, const sovc_pair *P, double pA[3], double pB[3],
                       double n[3]);

/* Seed the cache from world points on (or near) A and B at poses XA, XB
 * (sov_cache_set); no evaluations or balls. */
void sovc_cache_set(sovc_cache *cache, const sovc_pose *XA, const sovc_pose *XB, const double pA[3],
                    const double pB[3]);

/* 1 if the cache holds an answer exactly as a query or sovc_cache_set
 * sealed it. */
int sovc_cache_intact(const sovc_cache *cache);

/* Before a query reads the cache: one whose contents are not what a query
 * or sovc_cache_set sealed into it (junk, a torn or edited copy) is
 * emptied, so the query runs cold and never trusts them. */
void sovc_cache_admit(sovc_cache *cache);

#endif
