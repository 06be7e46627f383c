// Rejected documents: every error names the source, line, link and
// attribute, with the status of the problem.
#include <gtest/gtest.h>

#include <string>

#include "superovoid/urdf.h"
#include "superovoid/urdf/model.h"
#include "urdf_test_util.h"

namespace {

using sov::urdf::Error;

// A document with one link "finger" whose collision "tip" holds geometry
// (line 3 is the <geometry> line).
std::string fingerWith(const std::string& geometry) {
  return "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'>\n"
         "<link name='finger'><collision name='tip'>\n"
         "<geometry>" + geometry + "</geometry>\n"
         "</collision></link>\n"
         "</robot>\n";
}

// A superovoid element with the given attributes, after a box fallback.
std::string superovoid(const std::string& attributes) {
  return "<box size='1 1 1'/><sov:superovoid " + attributes + "/>";
}

const char* const kValid = "a1='0.3' a2='0.3' a3='0.4' eps1='0.8' eps2='0.6'";

// The Error that parse(xml, "bad.urdf") throws (status 0 if none).
Error parseError(const std::string& xml) {
  try {
    sov::urdf::parse(xml, "bad.urdf");
  } catch (const Error& e) {
    return e;
  }
  return Error(0, {}, "no error");
}

// Expect e to have status, line, link and attribute, and its message to
// contain "bad.urdf:<line>: " and each of the texts.
void expectScanError(const Error& e, int status, int line, const std::string& link,
                     const std::string& attribute, std::initializer_list<std::string> texts) {
  const std::string what = e.what();
  EXPECT_EQ(e.status(), status) << what;
  EXPECT_EQ(e.where().source, "bad.urdf");
  EXPECT_EQ(e.where().line, line) << what;
  EXPECT_EQ(e.where().link, link) << what;
  EXPECT_EQ(e.where().attribute, attribute) << what;
  EXPECT_EQ(what.rfind("bad.urdf:" + std::to_string(line) + ": ", 0), 0u) << what;
  if (!link.empty()) {
    EXPECT_NE(what.find("link '" + link + "'"), std::string::npos) << what;
  }
  for (const std::string& t : texts) EXPECT_NE(what.find(t), std::string::npos) << what;
}

TEST(UrdfErrors, ValidFingerParses) {
  EXPECT_EQ(sov::urdf::parse(fingerWith(superovoid(kValid))).superovoids.size(), 1u);
}

TEST(UrdfErrors, MissingAttribute) {
  expectScanError(parseError(fingerWith(superovoid("a1='0.3' a2='0.3' a3='0.4' eps1='0.8'"))),
                  SOV_URDF_ERR_ATTRIBUTE, 3, "finger", "eps2",
                  {"collision 'tip' (#0)", "attribute 'eps2' is missing"});
}

TEST(UrdfErrors, NonNumbers) {
  for (const char* value : {"0.6x", "", " 0.6", "0.6 ", "nan", "inf", "-inf", "1e999", "0,6",
                            "++0.6", "+-0.6", "0x1p-1", "six"}) {
    SCOPED_TRACE(value);
    expectScanError(
        parseError(fingerWith(
            superovoid(std::string("a1='0.3' a2='0.3' a3='0.4' eps1='0.8' eps2='") + value + "'"))),
        SOV_URDF_ERR_ATTRIBUTE, 3, "finger", "eps2",
        {"attribute 'eps2' is not a finite number: \"" + std::string(value) + "\""});
  }
}

TEST(UrdfErrors, NumberSpellingsAccepted) {
  for (const char* value : {"0.6", "+0.6", "6e-1", "6E-1", ".6", "0.60000"}) {
    SCOPED_TRACE(value);
    const auto m = sov::urdf::parse(fingerWith(
        superovoid(std::string("a1='0.3' a2='0.3' a3='0.4' eps1='0.8' eps2='") + value + "'")));
    EXPECT_EQ(m.superovoids.at(0).params[4], 0.6);
  }
}

TEST(UrdfErrors, UnknownAttribute) {
  expectScanError(parseError(fingerWith(superovoid(std::string(kValid) + " tapper_x='0.1'"))),
                  SOV_URDF_ERR_ATTRIBUTE, 3, "finger", "tapper_x",
                  {"unknown attribute 'tapper_x'"});
}

// The line of an attribute on a continuation line is the attribute's.
TEST(UrdfErrors, LineOfTheAttributeFromAFile) {
  try {
    sov::urdf::parseFile(sov_test::dataPath("bad_eps1.urdf"));
    FAIL() << "eps1 = 2.5 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), SOV_ERR_EXPONENT);
    EXPECT_EQ(e.where().source, sov_test::dataPath("bad_eps1.urdf"));
    EXPECT_EQ(e.where().line, 8);  // eps1's own line, not the element's (7)
    EXPECT_EQ(e.where().attribute, "eps1");
  }
  std::string text = sov_test::readText(sov_test::dataPath("bad_eps1.urdf"));
  text.replace(text.find("2.5"), 3, "2.5q");
  try {
    sov::urdf::parse(text, "bad.urdf");
    FAIL() << "2.5q accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), SOV_URDF_ERR_ATTRIBUTE);
    EXPECT_EQ(e.where().line, 8);
  }
}

TEST(UrdfErrors, InvalidShapeExplained) {
  expectScanError(
      parseError(fingerWith(superovoid("a1='0.3' a2='0.3' a3='0.4' eps1='2.5' eps2='0.6'"))),
      SOV_ERR_EXPONENT, 3, "finger", "eps1", {"invalid superovoid: eps1 = 2.5 is outside (0, 2)"});
  expectScanError(
      parseError(fingerWith(superovoid("a1='-0.3' a2='0.3' a3='0.4' eps1='1' eps2='0.6'"))),
      SOV_ERR_SIZE, 3, "finger", "a1", {"a1 = -0.3 must be > 0"});
  expectScanError(parseError(fingerWith(superovoid(std::string(kValid) + " taper_y='1.2'"))),
                  SOV_ERR_TAPER, 3, "finger", "taper_y", {"taper_y = 1.2 is outside (-1, 1)"});
}

TEST(UrdfErrors, NonConvexShapeExplained) {
  const double params[7] = {0.3, 0.3, 0.4, 1, 1.9, 0.9, 0.9};
  sov_shape shape;
  ASSERT_EQ(sov_shape_init(&shape, params), SOV_ERR_NONCONVEX);
  char text[512];
  sov_shape_explain(text, sizeof text, params);
  expectScanError(
      parseError(fingerWith(superovoid(
          "a1='0.3' a2='0.3' a3='0.4' eps1='1' eps2='1.9' taper_x='0.9' taper_y='0.9'"))),
      SOV_ERR_NONCONVEX, 3, "finger", "taper_x taper_y", {"non-convex superovoid: ", text});
}

TEST(UrdfErrors, SuperovoidInVisual) {
  const std::string xml =
      "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'>\n"
      "<link name='finger'><visual><geometry>\n" +
      superovoid(kValid) + "</geometry></visual></link></robot>";
  expectScanError(parseError(xml), SOV_URDF_ERR_PLACEMENT, 3, "finger", "",
                  {"<sov:superovoid> is allowed in <collision> geometry only"});
}

TEST(UrdfErrors, SuperovoidOutsideGeometry) {
  const std::string xml =
      "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'>\n"
      "<link name='finger'><collision>\n<sov:superovoid " + std::string(kValid) +
      "/></collision></link></robot>";
  expectScanError(parseError(xml), SOV_URDF_ERR_PLACEMENT, 3, "", "",
                  {"must be a child of <robot><link><collision><geometry>"});
}

TEST(UrdfErrors, TwoSuperovoidsInOneGeometry) {
  expectScanError(parseError(fingerWith(superovoid(kValid) + "<sov:superovoid " + kValid + "/>")),
                  SOV_URDF_ERR_PLACEMENT, 3, "finger", "",
                  {"a second superovoid in one <geometry>"});
}

TEST(UrdfErrors, UnknownElementOfTheNamespace) {
  expectScanError(parseError(fingerWith("<box size='1 1 1'/><sov:capsule radius='1' length='2'/>")),
                  SOV_URDF_ERR_PLACEMENT, 3, "", "", {"unknown element <sov:capsule>"});
}

TEST(UrdfErrors, MalformedXml) {
  // tinyxml2 names the line of the element left open.
  expectScanError(parseError("<robot name='r'>\n<link name='a'>\n</robot>\n"), SOV_URDF_ERR_XML, 2,
                  "", "", {"not well-formed XML (XML_ERROR_MISMATCHED_ELEMENT"});
}

// urdfdom's TinyXML trusts a lead byte's sequence length; a document that
// ends inside a cut-short sequence made it read past the end of the text
// (an ASan report from urdf_fuzz). Such documents are refused before any
// XML reader sees them, with the line, column and bytes.
TEST(UrdfErrors, NotUtf8) {
  struct Case {
    std::string bytes;  // on line 2, after "<!-- "
    std::string text;
  };
  const Case cases[] = {
      {"\xF0\"", "the bytes 0xF0 0x22 are not UTF-8 (column 6)"},  // cut short
      {"\xE9t\xE9", "the bytes 0xE9 0x74 are not UTF-8"},          // Latin-1
      {"\xC0\xAF", "the byte 0xC0 is not UTF-8"},                  // overlong '/'
      {"\xED\xA0\x80", "the bytes 0xED 0xA0 are not UTF-8"},       // surrogate
      {"\xF4\x90\x80\x80", "the bytes 0xF4 0x90 are not UTF-8"},   // past U+10FFFF
      {"\x80", "the byte 0x80 is not UTF-8"},                      // stray continuation
      {std::string(1, '\0'), "a NUL byte (column 6)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string xml = "<?xml version='1.0'?>\n<!-- " + c.bytes + " -->\n" +
                            fingerWith(superovoid(kValid));
    expectScanError(parseError(xml), SOV_URDF_ERR_XML, 2, "", "",
                    {"not a UTF-8 document: " + c.text});
  }
  // The same at the very end, where TinyXML would step over the terminator.
  expectScanError(parseError(fingerWith(superovoid(kValid)) + "<!-- \xE2\x82"), SOV_URDF_ERR_XML, 6,
                  "", "", {"the bytes 0xE2 0x82 are not UTF-8"});
}

TEST(UrdfErrors, Utf8NamesAndCommentsParse) {
  // Two-, three- and four-byte sequences at their range limits.
  const std::string xml = "<?xml version='1.0' encoding='UTF-8'?>\n<!-- \xC2\x80 \xE0\xA0\x80 "
                          "\xED\x9F\xBF \xEF\xBF\xBD \xF0\x90\x80\x80 \xF4\x8F\xBF\xBF -->\n" +
                          fingerWith(superovoid(kValid));
  const std::string named = std::string(xml).replace(xml.find("'finger'"), 8, "'Gr\xC3\xA4ifer'");
  EXPECT_EQ(sov::urdf::parse(xml).superovoids.size(), 1u);
  const sov::urdf::Model m = sov::urdf::parse(named);
  ASSERT_EQ(m.superovoids.size(), 1u);
  EXPECT_EQ(m.superovoids[0].link, "Gr\xC3\xA4ifer");
  // The check is on the caller's text only: tinyxml2 writes a reference to a
  // surrogate as its three bytes, and the comment below makes the parser
  // write the fallback box through tinyxml2 (which quotes with ").
  const std::string reprinted =
      "<robot name='r&#xD800;' xmlns:sov='urn:superovoid:urdf:1'>\n"
      "<link name='finger'><collision>\n"
      "<geometry><!-- <sov:superovoid --><sov:superovoid " + std::string(kValid) +
      "/></geometry>\n</collision></link>\n</robot>\n";
  EXPECT_NE(sov::urdf::parse(reprinted).loaded_xml.find("<link name=\"finger\">"),
            std::string::npos);
}

// urdfdom silently drops a collision it cannot read and every later one of
// the link; the extension refuses such a document.
TEST(UrdfErrors, CollisionDroppedByUrdfdom) {
  const std::string xml =
      "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'>\n"
      "<link name='finger'>\n"
      "<collision><geometry><capsule radius='1' length='2'/></geometry></collision>\n"
      "<collision><geometry>" + superovoid(kValid) + "</geometry></collision>\n"
      "</link></robot>";
  expectScanError(parseError(xml), SOV_URDF_ERR_MODEL, 2, "finger", "",
                  {"urdfdom kept 0 of its 2 <collision> elements"});
}

TEST(UrdfErrors, RobotWithoutName) {
  expectScanError(parseError("<robot>\n<link name='a'/></robot>"), SOV_URDF_ERR_MODEL, 1, "", "",
                  {"urdfdom could not load the model (<robot> has no name)"});
}

TEST(UrdfErrors, UnreadableFile) {
  try {
    sov::urdf::parseFile("/nonexistent/dir/robot.urdf");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), SOV_URDF_ERR_IO);
    EXPECT_EQ(std::string(e.what()), "/nonexistent/dir/robot.urdf: cannot read the file");
  }
}

// A folder opens as a stream and fails only when read: named as a folder
// (it once read as an empty, malformed document).
TEST(UrdfErrors, AFolderIsNamed) {
  const std::string folder = ::testing::TempDir();
  try {
    sov::urdf::parseFile(folder);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), SOV_URDF_ERR_IO);
    EXPECT_EQ(std::string(e.what()), folder + ": cannot read the file: it is a folder");
  }
}

TEST(UrdfErrors, ErrorIsARuntimeError) {
  EXPECT_THROW(sov::urdf::parse("<robot"), std::runtime_error);
  try {
    sov::urdf::parse("<robot");
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("<string>:", 0), 0u) << e.what();
  }
}

}  // namespace
