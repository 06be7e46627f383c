"""superovoid: certified signed distance, witness points and normal between
superovoids (tapered superellipsoids), over the project's C library.

    import superovoid as sov
    a = sov.Shape(0.8, 0.5, 0.3, 1.0, 1.0)
    b = sov.Shape(0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.3)
    r = sov.distance(a, sov.Pose(), b, sov.Pose([1.5, 0.2, 0]))
    r.d, r.n, r.p_a, r.p_b

Single pairs: Shape, Pose, Options, Cache, distance, collide (Result).
Many pairs: distance_batch, collide_batch over numpy arrays, on threads, with
the GIL released (DistanceBatch, CollideBatch, CacheArray).
Robots (when the library was built with its URDF and FCL layers): Scene,
Obstacle, PairDistance, Contact. Fitting (with qhull): fit_superovoid,
fit_urdf, load_mesh.
Errors: Error (status, message), BatchError, UrdfError, SceneError.
"""

from ._errors import BatchError, Error, SceneError, UrdfError
from ._superovoid import (
    HAVE_FIT,
    HAVE_SCENE,
    METHODS,
    Cache,
    CacheArray,
    CollideBatch,
    DistanceBatch,
    Options,
    Pose,
    Result,
    Shape,
    __version__,
    collide,
    collide_batch,
    distance,
    distance_batch,
    status_string,
    version,
    work_size,
)

if HAVE_SCENE:
    from ._superovoid import Contact, Obstacle, PairDistance, Scene
if HAVE_FIT:
    from ._superovoid import CollisionFit, FitResult, UnionFit, fit_superovoid, fit_urdf, load_mesh

# C status codes (superovoid/status.h), for comparing with Error.status.
OK = 0
ERR_NULL = -1
ERR_NONFINITE = -2
ERR_SIZE = -3
ERR_EXPONENT = -4
ERR_TAPER = -5
ERR_NONCONVEX = -6
ERR_QUATERNION = -7
ERR_ROTATION = -8
ERR_OPTION = -9
ERR_NO_CONVERGENCE = -10
ERR_SINGULAR = -11
ERR_BUFFER = -12
ERR_SPURIOUS = -13
ERR_RANGE = -14
ERR_UNINITIALIZED = -15
ERR_INDEX = -16
