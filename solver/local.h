/* The default method's local stage: Newton on its charts, one after
 * another, from one start, until one gives an acceptable answer. */
#ifndef SOLVER_LOCAL_H
#define SOLVER_LOCAL_H

#include "solver/global.h"
#include "solver/implicit.h"
#include "solver/types.h"
#include "solver/warm.h"

/* Newton configuration of the default method's charts: the SPEC's F (the
 * normalised G costs two more transcendentals per evaluation; from the
 * charts' starts on the surfaces both answer every pair of both batteries),
 * line search, options->tolerance, at most min(max_iterations, 16) steps
 * (sovc_solve_local gives the normal chart as many, the charts after it at
 * most 12), the small LU. */
sovc_newton_config sovc_chart_config(const sovc_options *options);

/* Where a local solve starts: world direction v from A towards B (not
 * unit: the first stage passes sovc_core_direction's; the normal chart
 * normalises it), support points pA, pB, and the objective at v (-INFINITY
 * for no bound), below which no answer is taken. polish: the global
 * search's polish, which tries fewer charts (local.c, kPolishCharts). */
typedef struct sovc_local_start {
  double v[3], pA[3], pB[3];
  double lb;
  int polish;
} sovc_local_start;

/* One local solve from at: the position chart, then the normal chart, the
 * mixed charts and the angle chart (a polish: the normal chart alone),
 * taking the first that converges to d >= at->lb. Keeps the answer in best
 * if it is the first or has a larger d; adds iterations. SOV_ERR_SPURIOUS
 * if every chart ended below at->lb. overlap_to_search: the caller hands
 * unfinished overlaps to the global search; then, when the position chart
 * fails and the centre line proves the bodies overlap, the solve stops
 * there (SOV_ERR_NO_CONVERGENCE). warm (NULL for none): the position chart
 * starts from warm->start if set, and warm->have_last says whether this
 * solve's answer came from it. A verdict in cfg is asked at the position
 * and normal charts' iterates; SOVC_DECIDED where it decided. */
int sovc_solve_local(sovc_result *best, int *have, const sovc_pair *P, const sovc_local_start *at,
                     const sovc_newton_config *cfg, int overlap_to_search, sovc_warm *warm);

/* What the global search's polish needs: the pair and the charts'
 * configuration. */
typedef struct sovc_local_polisher {
  const sovc_pair *P;
  const sovc_newton_config *cfg;
} sovc_local_polisher;

/* The global search's configuration on P whose polish is this local stage
 * (configuration cfg, no warm start), in work memory work (NULL: on the
 * stack); polisher is its storage. */
sovc_search_config sovc_local_search_config(sovc_local_polisher *polisher, const sovc_pair *P,
                                            const sovc_newton_config *cfg, void *work);

#endif
