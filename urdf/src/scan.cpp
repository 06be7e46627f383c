#include "scan.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <utility>

#include "number.h"
#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"

namespace sov {
namespace urdf {
namespace detail {

namespace {

using tinyxml2::XMLAttribute;
using tinyxml2::XMLElement;

// The seven attributes, in sov_shape_init order, and which are required.
constexpr const char* kParamNames[7] = {"a1", "a2", "a3", "eps1", "eps2",
                                        "taper_x", "taper_y"};
constexpr bool kRequired[7] = {true, true, true, true, true, false, false};

// Namespace declarations in scope: (prefix, URI), innermost last; the
// default namespace has prefix "".
using Scope = std::vector<std::pair<std::string, std::string>>;

// State of one walk over a document.
struct Walk {
  const std::string& source;
  const XMLElement* robot;
  Scan scan;
  std::map<std::pair<int, std::string>, int> seen;  // (line, name) -> count
  std::set<const XMLElement*> geometries;           // holding a superovoid
};

// Add the xmlns declarations of e to scope.
void declare(Scope* scope, const XMLElement* e) {
  for (const XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    const char* name = a->Name();
    if (std::strcmp(name, "xmlns") == 0) {
      scope->emplace_back("", a->Value());
    } else if (std::strncmp(name, "xmlns:", 6) == 0) {
      scope->emplace_back(name + 6, a->Value());
    }
  }
}

// The URI bound to prefix in scope ("" when unbound).
std::string lookup(const Scope& scope, const std::string& prefix) {
  for (auto it = scope.rbegin(); it != scope.rend(); ++it) {
    if (it->first == prefix) return it->second;
  }
  return "";
}

// 1 if e is an element named name.
bool named(const XMLElement* e, const char* name) {
  return e && std::strcmp(e->Name(), name) == 0;
}

// The parent of e if it is an element, else nullptr.
const XMLElement* parentOf(const XMLElement* e) {
  return e->Parent() ? e->Parent()->ToElement() : nullptr;
}

[[noreturn]] void fail(int status, const Walk& w, int line,
                       const std::string& link, const std::string& attribute,
                       const std::string& message) {
  throw Error(status, Location{w.source, line, link, attribute}, message);
}

// Check that e sits in <robot><link><collision><geometry>; returns the
// <collision>.
const XMLElement* checkPlacement(const Walk& w, const XMLElement* e) {
  const XMLElement* geometry = parentOf(e);
  const XMLElement* holder = geometry ? parentOf(geometry) : nullptr;
  const XMLElement* link = holder ? parentOf(holder) : nullptr;
  const std::string where = std::string("<") + e->Name() + "> ";
  if (named(geometry, "geometry") && named(holder, "visual")) {
    const char* name = link ? link->Attribute("name") : nullptr;
    fail(SOV_URDF_ERR_PLACEMENT, w, e->GetLineNum(), name ? name : "", "",
         (name ? "link '" + std::string(name) + "': " : std::string()) + where +
             "is allowed in <collision> geometry only, not in <visual>");
  }
  if (!named(geometry, "geometry") || !named(holder, "collision") ||
      !named(link, "link") || parentOf(link) != w.robot) {
    fail(SOV_URDF_ERR_PLACEMENT, w, e->GetLineNum(), "", "",
         where + "must be a child of <robot><link><collision><geometry>");
  }
  return holder;
}

// Index of collision among the <collision> children of link.
std::size_t collisionIndex(const XMLElement* link, const XMLElement* collision) {
  std::size_t i = 0;
  for (const XMLElement* c = link->FirstChildElement("collision"); c != collision;
       c = c->NextSiblingElement("collision")) {
    ++i;
  }
  return i;
}

// Read the seven parameters of site.element strictly.
void readParams(const Walk& w, Site* site, const std::string& who) {
  const XMLElement* e = site->element;
  const std::string tag = std::string("<") + e->Name() + "> ";
  for (const XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    const char* name = a->Name();
    if (std::strcmp(name, "xmlns") == 0 || std::strncmp(name, "xmlns:", 6) == 0) continue;
    int k = 0;
    while (k < 7 && std::strcmp(name, kParamNames[k]) != 0) ++k;
    if (k == 7) {
      fail(SOV_URDF_ERR_ATTRIBUTE, w, a->GetLineNum(), site->link, name,
           who + ": " + tag + "has an unknown attribute '" + name +
               "' (expected a1 a2 a3 eps1 eps2 taper_x taper_y)");
    }
    if (!parseNumber(a->Value(), &site->params[k])) {
      fail(SOV_URDF_ERR_ATTRIBUTE, w, a->GetLineNum(), site->link, name,
           who + ": " + tag + "attribute '" + name + "' is not a finite number: \"" +
               a->Value() + "\"");
    }
  }
  for (int k = 0; k < 7; ++k) {
    if (kRequired[k] && !e->Attribute(kParamNames[k])) {
      fail(SOV_URDF_ERR_ATTRIBUTE, w, e->GetLineNum(), site->link, kParamNames[k],
           who + ": " + tag + "attribute '" + kParamNames[k] + "' is missing");
    }
  }
}

// Validate the shape of site with sov_shape_init; explain a rejection.
void checkShape(const Walk& w, Site* site, const std::string& who) {
  const int status = sov_shape_init(&site->shape, site->params.data());
  if (status == SOV_OK) return;
  char text[512];
  sov_shape_explain(text, sizeof text, site->params.data());
  std::string attribute = "taper_x taper_y";
  int line = site->line;
  if (status != SOV_ERR_NONCONVEX) {  // the text starts with the parameter
    attribute = text;
    attribute = attribute.substr(0, attribute.find(' '));
    const XMLAttribute* a = site->element->FindAttribute(attribute.c_str());
    if (a) line = a->GetLineNum();
  }
  fail(status, w, line, site->link, attribute,
       who + ": " + (status == SOV_ERR_NONCONVEX ? "non-convex" : "invalid") +
           " superovoid: " + text);
}

// Record and validate the superovoid element e (local name checked here).
void visit(Walk* w, XMLElement* e, const std::string& local, int rank) {
  if (local != "superovoid") {
    fail(SOV_URDF_ERR_PLACEMENT, *w, e->GetLineNum(), "", "",
         std::string("unknown element <") + e->Name() +
             "> of namespace " SOV_URDF_NAMESPACE " (it has only superovoid)");
  }
  const XMLElement* collision = checkPlacement(*w, e);
  const XMLElement* link = parentOf(collision);
  Site site;
  site.element = e;
  site.geometry = const_cast<XMLElement*>(parentOf(e));
  site.line = e->GetLineNum();
  site.rank = rank;
  const char* link_name = link->Attribute("name");
  if (!link_name) {
    fail(SOV_URDF_ERR_MODEL, *w, link->GetLineNum(), "", "name",
         "<link> holding a superovoid has no name");
  }
  site.link = link_name;
  const char* collision_name = collision->Attribute("name");
  site.collision = collision_name ? collision_name : "";
  site.index = collisionIndex(link, collision);
  const std::string who = describe(site.link, site.collision, site.index);
  if (!w->geometries.insert(site.geometry).second) {
    fail(SOV_URDF_ERR_PLACEMENT, *w, site.line, site.link, "",
         who + ": a second superovoid in one <geometry>");
  }
  site.had_fallback = site.geometry->FirstChildElement() != e;
  readParams(*w, &site, who);
  checkShape(*w, &site, who);
  w->scan.sites.push_back(site);
}

// Visit e and its descendants with the namespaces of scope in force.
void walk(Walk* w, XMLElement* e, Scope scope) {
  declare(&scope, e);
  const std::string qname = e->Name();
  const int rank = w->seen[{e->GetLineNum(), qname}]++;
  const std::size_t colon = qname.find(':');
  const std::string prefix = colon == std::string::npos ? "" : qname.substr(0, colon);
  const std::string local = colon == std::string::npos ? qname : qname.substr(colon + 1);
  const std::string uri = lookup(scope, prefix);
  if (uri == SOV_URDF_NAMESPACE) visit(w, e, local, rank);
  if (uri.empty() && !prefix.empty() && local == "superovoid") {
    fail(SOV_URDF_ERR_PLACEMENT, *w, e->GetLineNum(), "", "",
         "<" + qname + ">: prefix '" + prefix + "' is not declared (add xmlns:" + prefix +
             "=\"" SOV_URDF_NAMESPACE "\" to <robot>)");
  }
  for (XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    walk(w, c, scope);
  }
}

// Count the <collision> children of every <link> of robot.
std::vector<LinkCount> countCollisions(const XMLElement* robot) {
  std::vector<LinkCount> links;
  if (!robot) return links;
  for (const XMLElement* l = robot->FirstChildElement("link"); l;
       l = l->NextSiblingElement("link")) {
    LinkCount c;
    const char* name = l->Attribute("name");
    c.name = name ? name : "";
    c.line = l->GetLineNum();
    for (const XMLElement* k = l->FirstChildElement("collision"); k;
         k = k->NextSiblingElement("collision")) {
      ++c.collisions;
      c.collision_lines.push_back(k->GetLineNum());
    }
    links.push_back(c);
  }
  return links;
}

// The name and line of every <joint> of robot.
std::vector<JointLine> jointLines(const XMLElement* robot) {
  std::vector<JointLine> joints;
  if (!robot) return joints;
  for (const XMLElement* j = robot->FirstChildElement("joint"); j;
       j = j->NextSiblingElement("joint")) {
    const char* name = j->Attribute("name");
    joints.push_back({name ? name : "", j->GetLineNum()});
  }
  return joints;
}

// Offset of the first byte of xml that is not part of a well-formed UTF-8
// sequence (RFC 3629: no overlong forms, surrogates or code points past
// U+10FFFF) or is NUL; npos when there is none. length receives the number
// of bytes up to and including the one that breaks the sequence.
std::size_t firstBadByte(const std::string& xml, std::size_t* length) {
  const auto* s = reinterpret_cast<const unsigned char*>(xml.data());
  const std::size_t n = xml.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char b = s[i];
    int more = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
    if (b == 0) {
      *length = 1;
      return i;
    } else if (b < 0x80) {
      more = 0;
    } else if (b >= 0xC2 && b <= 0xDF) {
      more = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      more = 2;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      more = 3;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    } else {
      *length = 1;
      return i;
    }
    for (int k = 1; k <= more; ++k) {
      const bool ok = i + k < n && (k == 1 ? s[i + k] >= lo && s[i + k] <= hi
                                           : s[i + k] >= 0x80 && s[i + k] <= 0xBF);
      if (!ok) {
        *length = k + 1;
        return i;
      }
    }
    i += 1 + more;
  }
  return std::string::npos;
}

}  // namespace

void checkUtf8(const std::string& xml, const std::string& source) {
  std::size_t length = 0;
  const std::size_t at = firstBadByte(xml, &length);
  if (at == std::string::npos) return;
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < at; ++i) {
    if (xml[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  char bytes[32] = "";
  for (std::size_t k = 0; k < length && at + k < xml.size(); ++k) {
    std::snprintf(bytes + std::strlen(bytes), sizeof bytes - std::strlen(bytes), "%s0x%02X",
                  k ? " " : "", static_cast<unsigned char>(xml[at + k]));
  }
  const std::string what = xml[at] == '\0' ? std::string("a NUL byte")
                           : length == 1   ? std::string("the byte ") + bytes + " is not UTF-8"
                                           : std::string("the bytes ") + bytes + " are not UTF-8";
  throw Error(
      SOV_URDF_ERR_XML, Location{source, line, "", ""},
      "not a UTF-8 document: " + what + " (column " + std::to_string(at - line_start + 1) + ")");
}

void parseXml(tinyxml2::XMLDocument* doc, const std::string& xml, const std::string& source) {
  if (doc->Parse(xml.c_str(), xml.size()) == tinyxml2::XML_SUCCESS) return;
  // ErrorStr() reads "Error=... ErrorID=... Line number=N: detail".
  std::string detail = doc->ErrorStr() ? doc->ErrorStr() : "";
  const std::size_t colon = detail.find(": ", detail.find("Line number="));
  detail = colon == std::string::npos ? "" : ": " + detail.substr(colon + 2);
  throw Error(SOV_URDF_ERR_XML, Location{source, doc->ErrorLineNum(), "", ""},
              std::string("not well-formed XML (") +
                  tinyxml2::XMLDocument::ErrorIDToName(doc->ErrorID()) + detail + ")");
}

Scan scanDocument(tinyxml2::XMLDocument* doc, const std::string& source) {
  Walk w{source, doc->FirstChildElement("robot"), Scan(), {}, {}};
  for (XMLElement* e = doc->FirstChildElement(); e; e = e->NextSiblingElement()) {
    walk(&w, e, Scope());
  }
  w.scan.links = countCollisions(w.robot);
  w.scan.joints = jointLines(w.robot);
  return std::move(w.scan);
}

std::string describe(const std::string& link, const std::string& collision,
                     std::size_t index) {
  std::string s = "link '" + link + "', collision ";
  if (collision.empty()) return s + "#" + std::to_string(index);
  return s + "'" + collision + "' (#" + std::to_string(index) + ")";
}

}  // namespace detail
}  // namespace urdf
}  // namespace sov
