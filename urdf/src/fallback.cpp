#include "superovoid/urdf/fallback.h"

#include "io.h"
#include "superovoid/urdf/model.h"
#include "xml_text.h"

namespace sov {
namespace urdf {

std::string addFallbacks(const std::string& xml, const std::string& source_name) {
  // parse() writes the boxes in (checked against a re-scan) and proves that
  // urdfdom loads the result with every collision.
  return parse(xml, source_name).loaded_xml;
}

void addFallbacksFile(const std::string& in_path, const std::string& out_path) {
  const std::string text = addFallbacks(detail::readFile(in_path), in_path);
  detail::writeFile(out_path, detail::relocateMeshFilenames(text, in_path, out_path));
}

}  // namespace urdf
}  // namespace sov
