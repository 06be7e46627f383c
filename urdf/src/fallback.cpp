#include "superovoid/urdf/fallback.h"

#include <filesystem>

#include "io.h"
#include "xml_text.h"
#include "superovoid/urdf/model.h"

namespace sov {
namespace urdf {

namespace {

// The folder of a file path ("" for the current one).
std::string folderOf(const std::string& path) {
  return std::filesystem::path(path).parent_path().string();
}

}  // namespace

std::string addFallbacks(const std::string& xml, const std::string& source_name) {
  // parse() writes the boxes in (checked against a re-scan) and proves that
  // urdfdom loads the result with every collision.
  return parse(xml, source_name).loaded_xml;
}

void addFallbacksFile(const std::string& in_path, const std::string& out_path) {
  const std::string text = addFallbacks(detail::readFile(in_path), in_path);
  detail::writeFile(out_path, detail::relocateMeshFilenames(text, folderOf(in_path), folderOf(out_path)));
}

}  // namespace urdf
}  // namespace sov
