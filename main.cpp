// verdict: the whole publication in one executable. See `verdict --help`.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/options.h"
#include "app/server.h"
#include "domain/content.h"
#include "store/maintenance.h"

#ifndef VERDICT_VERSION
#define VERDICT_VERSION "0.0.0"
#endif

namespace {

using namespace verdict;

int run_import(const Options &options) {
  std::ifstream file(options.files[0], std::ios::binary);
  if (!file) {
    std::cerr << "verdict: cannot read " << options.files[0] << "\n";
    return 1;
  }
  std::stringstream text;
  text << file.rdbuf();
  const auto parsed = parse_content(text.str());
  if (!parsed.errors.empty()) {
    for (const auto &error : parsed.errors)
      std::cerr << options.files[0] << ": " << error << "\n";
    std::cerr << "verdict: nothing imported (" << parsed.errors.size() << " errors)\n";
    return 1;
  }
  open_site_database(options.db)->import_content(parsed.content);
  std::cerr << "verdict: imported " << parsed.content.tools.size() << " tools, "
            << parsed.content.reviews.size() << " reviews, " << parsed.content.comparisons.size()
            << " comparisons\n";
  return 0;
}

int run_export(const Options &options) {
  Store store(options.db);
  const auto json = content_to_json(store.export_content());
  if (options.files.empty()) {
    std::cout << json;
    return 0;
  }
  std::ofstream out(options.files[0], std::ios::binary | std::ios::trunc);
  out << json;
  return out ? 0 : 1;
}

int run(const Options &options) {
  if (options.command == "help") {
    std::cout << usage();
    return 0;
  }
  if (options.command == "version") {
    std::cout << "verdict " << VERDICT_VERSION << "\n";
    return 0;
  }
  if (options.command == "backup") {
    backup_database(options.db, options.files[0]);
    std::cerr << "verdict: backed up " << options.db << " to " << options.files[0] << "\n";
    return 0;
  }
  if (options.command == "check") {
    const auto problems = check_database(options.db);
    for (const auto &problem : problems)
      std::cerr << "verdict check: " << problem << "\n";
    if (problems.empty()) std::cout << "ok\n";
    return problems.empty() ? 0 : 1;
  }
  if (options.command == "import") return run_import(options);
  if (options.command == "export") return run_export(options);
  return serve(options);
}

} // namespace

int main(int argc, char **argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const auto options = parse_options(args, [](const char *name) { return std::getenv(name); });
  if (!options.error.empty()) {
    std::cerr << "verdict: " << options.error << "\n\n" << usage();
    return 2;
  }
  try {
    return run(options);
  } catch (const std::exception &e) {
    std::cerr << "verdict: " << e.what() << "\n";
    return 1;
  }
}
