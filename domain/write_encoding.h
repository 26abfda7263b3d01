// A Write (domain/writes.h) as the cluster's stream of writes carries it: its kind's name and
// its arguments, one JSON object, in a ClusterWrite (domain/cluster_write.h). Every kind is
// written and read from what its struct says of itself (`kind`, `version`, `fields()`); its
// arguments carry its version ("v", absent in entries written before kinds were versioned,
// and read as 1). A node refuses a kind or a version it cannot read (app/cluster_writes.h): an
// older node meets a newer write only while it is being upgraded.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "domain/writes.h"

namespace verdict {

// The kind's name on the stream ("update_tool").
std::string_view kind_name(const Write &write);
nlohmann::json arguments_of(const Write &write);

// The Write of `kind` whose arguments arguments_of wrote; none when `kind` names no Write this
// version knows. Throws std::invalid_argument for arguments that are not the kind's, or of a
// version newer than this code reads. A vote's ballot is read with 0 seconds on its page: the
// node applying it judges that from its token (app/cluster_writes.cpp).
std::optional<Write> write_from(std::string_view kind, const nlohmann::json &arguments);

} // namespace verdict
