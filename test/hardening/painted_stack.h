// The stack a thread's work touches: the thread runs on a buffer of ours,
// painted first, and the bytes no longer painted afterwards are counted.
#ifndef SOV_TEST_PAINTED_STACK_H
#define SOV_TEST_PAINTED_STACK_H

#include <gtest/gtest.h>
#include <pthread.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace sov_test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;  // instrumented frames are several times larger
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// Bytes of a painted 512 KB stack that a thread running run(arg) touched.
inline size_t PaintedStackUsed(void* (*run)(void*), void* arg) {
  constexpr size_t kStackBytes = 512 * 1024;
  constexpr unsigned char kPaint = 0xa5;
  std::vector<unsigned char> stack(kStackBytes + 4096);
  unsigned char* base = stack.data() + (4096 - reinterpret_cast<uintptr_t>(stack.data()) % 4096);
  std::memset(base, kPaint, kStackBytes);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  EXPECT_EQ(pthread_attr_setstack(&attr, base, kStackBytes), 0);
  pthread_t thread;
  EXPECT_EQ(pthread_create(&thread, &attr, run, arg), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  size_t untouched = 0;
  while (untouched < kStackBytes && base[untouched] == kPaint) ++untouched;
  return kStackBytes - untouched;
}

}  // namespace sov_test

#endif  // SOV_TEST_PAINTED_STACK_H
