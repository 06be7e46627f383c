// The one exception hierarchy of the C++ layers (superovoid/error.h): errors
// of every layer are caught as sov::Error with their status, across the
// libraries that throw them, and sov::guardedCall maps every exception to a
// status and message as the C entry points do.
#include <gtest/gtest.h>
#include <superovoid/error.h>
#include <superovoid/fcl.h>
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>

#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "scene_test_util.h"

namespace {

// The status of the sov::Error that f throws (0 if none), its message in what.
template <class F>
int caughtStatus(F f, std::string* what) {
  try {
    f();
  } catch (const sov::Error& e) {
    *what = e.what();
    return e.status();
  }
  return 0;
}

TEST(ErrorHierarchy, EveryLayerThrowsSovError) {
  std::string what;
  // The FCL layer (libsuperovoid_fcl): an invalid shape.
  EXPECT_EQ(caughtStatus([] { sov::Superovoid(1, 1, 1, 2.5, 1); }, &what), SOV_ERR_EXPONENT);
  // The URDF layer (libsuperovoid_urdf): malformed XML, named by source.
  EXPECT_EQ(caughtStatus([] { sov::urdf::parse("<robot", "bad.urdf"); }, &what), SOV_URDF_ERR_XML);
  EXPECT_EQ(what.rfind("bad.urdf:", 0), 0u) << what;
  // The scene (libsuperovoid_scene): an unknown joint, also a urdf::Error.
  sov::urdf::Scene scene(sov_test::dataPath("toy_finger.urdf"));
  const auto unknown_joint = [&] { scene.setJointPositions({{"no_such_joint", 0}}); };
  EXPECT_EQ(caughtStatus(unknown_joint, &what), SOV_SCENE_ERR_JOINT);
  try {
    scene.setJointPositions({{"no_such_joint", 0}});
    ADD_FAILURE() << "no error";
  } catch (const sov::urdf::Error& e) {
    EXPECT_EQ(e.status(), SOV_SCENE_ERR_JOINT);
    EXPECT_NE(dynamic_cast<const sov::urdf::SceneError*>(&e), nullptr);
  }
}

TEST(ErrorHierarchy, ThrowIfErrorNamesTheStatus) {
  EXPECT_NO_THROW(sov::throwIfError(SOV_OK, "context"));
  std::string what;
  EXPECT_EQ(caughtStatus([] { sov::throwIfError(SOV_ERR_TAPER, "context"); }, &what),
            SOV_ERR_TAPER);
  EXPECT_EQ(what, std::string("context: ") + sov_status_string(SOV_ERR_TAPER));
}

TEST(ErrorHierarchy, GuardedCallMapsEveryExceptionToAStatus) {
  constexpr int kInternal = -999;
  char err[16];
  std::strcpy(err, "stale");
  EXPECT_EQ(sov::guardedCall(err, sizeof err, kInternal, [] { return SOV_OK; }), SOV_OK);
  EXPECT_STREQ(err, "");
  EXPECT_EQ(sov::guardedCall(err, sizeof err, kInternal,
                             []() -> int { throw sov::Error(-42, "a sov error message"); }),
            -42);
  EXPECT_STREQ(err, "a sov error mes");  // truncated to err_size - 1, terminated
  EXPECT_EQ(sov::guardedCall(err, sizeof err, kInternal, []() -> int { throw std::bad_alloc(); }),
            kInternal);
  EXPECT_STREQ(err, "out of memory");
  EXPECT_EQ(sov::guardedCall(err, sizeof err, kInternal,
                             []() -> int { throw std::runtime_error("other"); }),
            kInternal);
  EXPECT_STREQ(err, "other");
  EXPECT_EQ(sov::guardedCall(err, sizeof err, kInternal, []() -> int { throw 3; }), kInternal);
  EXPECT_STREQ(err, "unknown excepti");
  // A status returned without an exception is passed through, err untouched.
  std::strcpy(err, "kept");
  EXPECT_EQ(sov::guardedCall(err, sizeof err, kInternal, [] { return SOV_ERR_BUFFER; }),
            SOV_ERR_BUFFER);
  EXPECT_STREQ(err, "kept");
  EXPECT_EQ(sov::guardedCall(nullptr, 0, kInternal, []() -> int { throw 3; }), kInternal);
}

}  // namespace
