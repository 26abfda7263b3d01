// `verdict doctor`: a running install looked over as its owner would, each finding a line, ok
// or what is wrong and what to do: the database, the site answering, its address and
// certificate, the vote log's checkpoints, the backups, mail, the cluster and the disk.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "app/options.h"

namespace verdict {

// The settings the site runs with: the environment, then the settings file the service reads
// (--settings FILE, default /etc/default/verdict when it is there) for what the environment
// does not set, then the flags. Prints a line a finding and exits 1 on any problem, 0 when
// all is well.
int run_doctor(const std::vector<std::string> &args,
               const std::function<const char *(const char *)> &getenv, const Options &flags,
               std::ostream &out);

} // namespace verdict
