// The C entry points of superovoid/urdf.h: the table, the count query,
// buffers, statuses and messages; no exception crosses them.
#include "superovoid/urdf.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "superovoid/urdf/model.h"
#include "urdf_test_util.h"

extern "C" size_t sov_test_urdf_struct_size(void);

namespace {

using sov_test::dataPath;
using sov_test::readText;

constexpr size_t kErrSize = 512;

TEST(UrdfCApi, TableMatchesTheCppApi) {
  const std::string xml = readText(dataPath("mini_hand.urdf"));
  const sov::urdf::Model m = sov::urdf::parse(xml);
  std::vector<sov_urdf_superovoid> out(8);
  size_t count = 0;
  char err[kErrSize] = "x";
  ASSERT_EQ(sov_urdf_superovoids(out.data(), out.size(), &count, err, sizeof err, xml.c_str(), NULL),
            SOV_OK) << err;
  EXPECT_STREQ(err, "");
  ASSERT_EQ(count, m.superovoids.size());
  for (size_t i = 0; i < count; ++i) {
    const auto& s = m.superovoids[i];
    EXPECT_EQ(s.link, out[i].link);
    EXPECT_EQ(s.collision, out[i].collision);
    EXPECT_EQ(s.index, out[i].index);
    EXPECT_EQ(s.line, out[i].line);
    EXPECT_EQ(s.had_fallback ? 1 : 0, out[i].had_fallback);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(s.xyz[k], out[i].xyz[k]);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(s.quat[k], out[i].quat[k]);
    for (int k = 0; k < 7; ++k) EXPECT_EQ(s.params[k], out[i].params[k]);
    EXPECT_EQ(std::memcmp(&s.shape, &out[i].shape, sizeof s.shape), 0);
  }
}

TEST(UrdfCApi, FileEntryPoint) {
  std::vector<sov_urdf_superovoid> out(8);
  size_t count = 0;
  char err[kErrSize];
  EXPECT_EQ(sov_urdf_superovoids_file(out.data(), out.size(), &count, err, sizeof err,
                                      dataPath("mini_hand.urdf").c_str()), SOV_OK) << err;
  EXPECT_EQ(count, 5u);
  EXPECT_EQ(sov_urdf_superovoids_file(out.data(), out.size(), &count, err, sizeof err,
                                      dataPath("bad_eps1.urdf").c_str()), SOV_ERR_EXPONENT);
  EXPECT_EQ(count, 0u);
  EXPECT_NE(std::string(err).find(dataPath("bad_eps1.urdf") + ":8: link 'finger'"),
            std::string::npos) << err;
}

TEST(UrdfCApi, CountQueryThenBufferTooSmall) {
  const std::string xml = readText(dataPath("mini_hand.urdf"));
  size_t count = 0;
  char err[kErrSize];
  EXPECT_EQ(sov_urdf_superovoids(NULL, 0, &count, err, sizeof err, xml.c_str(), "hand.urdf"),
            SOV_ERR_BUFFER);
  EXPECT_EQ(count, 5u);
  std::vector<sov_urdf_superovoid> out(2);
  EXPECT_EQ(sov_urdf_superovoids(out.data(), out.size(), &count, err, sizeof err, xml.c_str(), NULL),
            SOV_ERR_BUFFER);
  EXPECT_EQ(count, 5u);
  EXPECT_STREQ(out[1].link, "index_proximal");  // the first two are written
  EXPECT_NE(std::string(err).find("room for 2"), std::string::npos) << err;
}

// A document whose second superovoid has a link name of name_size - 1 characters.
std::string longNameDocument(size_t name_size) {
  const std::string name(name_size - 1, 'n');
  return "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'>"
         "<link name='a'><collision name='short'><geometry>"
         "<sov:superovoid a1='1' a2='1' a3='1' eps1='1' eps2='1'/>"
         "</geometry></collision></link>\n"
         "<link name='" + name + "'><collision><geometry>"
         "<sov:superovoid a1='1' a2='1' a3='1' eps1='1' eps2='1'/>"
         "</geometry></collision></link>"
         "<joint name='j' type='fixed'><parent link='a'/><child link='" + name + "'/></joint>"
         "</robot>";
}

TEST(UrdfCApi, NameTooLongIsReportedByTheCountQuery) {
  const std::string xml = longNameDocument(SOV_URDF_NAME_SIZE + 1);  // 256 characters
  size_t count = 0;
  char err[kErrSize];
  // The count query (capacity 0) already reports it, with its own status.
  EXPECT_EQ(sov_urdf_superovoids(NULL, 0, &count, err, sizeof err, xml.c_str(), "r.urdf"),
            SOV_URDF_ERR_NAME);
  EXPECT_EQ(count, 2u);
  EXPECT_NE(std::string(err).find("r.urdf:2: the link name (256 characters)"), std::string::npos)
      << err;
  // With room for every entry: the same status, and nothing is written.
  std::vector<sov_urdf_superovoid> out(2);
  std::memset(out.data(), 0x5a, out.size() * sizeof out[0]);
  EXPECT_EQ(sov_urdf_superovoids(out.data(), out.size(), &count, err, sizeof err, xml.c_str(),
                                 NULL),
            SOV_URDF_ERR_NAME);
  for (const auto& o : out) {
    const unsigned char* b = reinterpret_cast<const unsigned char*>(&o);
    for (size_t k = 0; k < sizeof o; ++k) ASSERT_EQ(b[k], 0x5a) << k;
  }
  // A long collision name too.
  const std::string coll(SOV_URDF_NAME_SIZE, 'c');
  const std::string xml2 =
      "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'><link name='l'><collision name='" +
      coll + "'><geometry><sov:superovoid a1='1' a2='1' a3='1' eps1='1' eps2='1'/>"
      "</geometry></collision></link></robot>";
  EXPECT_EQ(sov_urdf_superovoids(NULL, 0, &count, err, sizeof err, xml2.c_str(), NULL),
            SOV_URDF_ERR_NAME);
  EXPECT_NE(std::string(err).find("collision name"), std::string::npos) << err;
}

TEST(UrdfCApi, LongestNameFollowsTheCountProtocol) {
  const std::string xml = longNameDocument(SOV_URDF_NAME_SIZE);  // 255 characters: fits
  size_t count = 0;
  char err[kErrSize];
  EXPECT_EQ(sov_urdf_superovoids(NULL, 0, &count, err, sizeof err, xml.c_str(), NULL),
            SOV_ERR_BUFFER);
  ASSERT_EQ(count, 2u);
  std::vector<sov_urdf_superovoid> out(count);
  ASSERT_EQ(sov_urdf_superovoids(out.data(), out.size(), &count, err, sizeof err, xml.c_str(),
                                 NULL),
            SOV_OK) << err;
  EXPECT_STREQ(out[0].link, "a");
  EXPECT_STREQ(out[0].collision, "short");
  EXPECT_EQ(std::strlen(out[1].link), SOV_URDF_NAME_SIZE - 1u);
  EXPECT_STREQ(out[1].collision, "");
}

TEST(UrdfCApi, NullArguments) {
  sov_urdf_superovoid out;
  size_t count = 7;
  char err[kErrSize];
  EXPECT_EQ(sov_urdf_superovoids(&out, 1, NULL, err, sizeof err, "<robot/>", NULL), SOV_ERR_NULL);
  EXPECT_EQ(sov_urdf_superovoids(&out, 1, &count, err, sizeof err, NULL, NULL), SOV_ERR_NULL);
  EXPECT_EQ(sov_urdf_superovoids(NULL, 1, &count, err, sizeof err, "<robot/>", NULL), SOV_ERR_NULL);
  EXPECT_EQ(sov_urdf_superovoids_file(&out, 1, &count, NULL, 0, NULL), SOV_ERR_NULL);
}

TEST(UrdfCApi, ErrorsBecomeStatusesAndTruncatedMessages) {
  size_t count = 0;
  char err[16];
  EXPECT_EQ(sov_urdf_superovoids(NULL, 0, &count, err, sizeof err, "<robot", "x.urdf"),
            SOV_URDF_ERR_XML);
  EXPECT_EQ(std::strlen(err), sizeof err - 1);
  EXPECT_EQ(std::string(err).rfind("x.urdf:1: ", 0), 0u) << err;
  char one[1] = {'x'};  // room for the NUL only
  EXPECT_EQ(sov_urdf_superovoids(NULL, 0, &count, one, sizeof one, "<robot", "x.urdf"),
            SOV_URDF_ERR_XML);
  EXPECT_EQ(one[0], '\0');
  EXPECT_EQ(sov_urdf_superovoids_file(NULL, 0, &count, NULL, 0, "/nonexistent.urdf"),
            SOV_URDF_ERR_IO);
  EXPECT_EQ(sov_urdf_superovoids(NULL, 0, &count, NULL, 0,
                                 readText(dataPath("mini_hand_version_1_1.urdf")).c_str(), NULL),
            SOV_URDF_ERR_MODEL);
}

TEST(UrdfCApi, HeaderIsC) {
  EXPECT_EQ(sov_test_urdf_struct_size(), sizeof(sov_urdf_superovoid));
}

TEST(UrdfCApi, StatusStrings) {
  for (int s : {SOV_URDF_ERR_XML, SOV_URDF_ERR_IO, SOV_URDF_ERR_MODEL, SOV_URDF_ERR_PLACEMENT,
                SOV_URDF_ERR_ATTRIBUTE, SOV_URDF_ERR_INTERNAL, SOV_URDF_ERR_NAME}) {
    ASSERT_NE(sov_urdf_status_string(s), nullptr);
    EXPECT_GT(std::strlen(sov_urdf_status_string(s)), 10u) << s;
  }
  EXPECT_STREQ(sov_urdf_status_string(SOV_ERR_NONCONVEX), sov_status_string(SOV_ERR_NONCONVEX));
}

}  // namespace
