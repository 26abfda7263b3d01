#include "cluster/write_stream.h"

#include <nats/nats.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <thread>

namespace verdict::cluster {

namespace {

std::string said(natsStatus status, jsErrCode error = static_cast<jsErrCode>(0)) {
  std::string text = natsStatus_GetText(status);
  if (error != 0) text += " (JetStream error " + std::to_string(static_cast<int>(error)) + ")";
  return text;
}

// What a message of the stream carries besides its payload: its id and when it was stored.
// `stored_at_ns`: JetStream's time for it, where the caller has it (a consumer's metadata).
StreamEntry entry_of(natsMsg *message, uint64_t sequence, int64_t stored_at_ns) {
  StreamEntry entry{
      sequence,
      std::string(natsMsg_GetData(message), static_cast<size_t>(natsMsg_GetDataLength(message))),
      "", stored_at_ns / 1000000};
  const char *id = nullptr;
  if (natsMsgHeader_Get(message, "Nats-Msg-Id", &id) == NATS_OK && id) entry.id = id;
  return entry;
}

} // namespace

std::string without_password(const std::string &url) {
  const auto scheme = url.find("://");
  const auto at = url.rfind('@');
  if (scheme == std::string::npos || at == std::string::npos || at < scheme) return url;
  const auto colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url; // a user, or a token, alone
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

std::string user_in(const std::string &url) {
  const auto scheme = url.find("://");
  const auto at = url.rfind('@');
  if (scheme == std::string::npos || at == std::string::npos || at < scheme) return {};
  const auto credentials = url.substr(scheme + 3, at - scheme - 3);
  const auto colon = credentials.find(':');
  // A token alone (nats://TOKEN@HOST) names no user.
  return colon == std::string::npos ? std::string() : credentials.substr(0, colon);
}

std::string inbox_prefix_of(const std::string &user) {
  if (user.empty()) return "_INBOX";
  // A subject's token may hold neither dots nor wildcards: the user's name, kept one token.
  std::string prefix = "_INBOX_";
  for (const char c : user)
    prefix += (c == '.' || c == '*' || c == '>' || static_cast<unsigned char>(c) <= ' ') ? '_' : c;
  return prefix;
}

// The connection and the JetStream context over it; libnats's own threads read and reconnect.
struct WriteStream::Nats {
  natsConnection *connection = nullptr;
  jsCtx *jetstream = nullptr;
  kvStore *places = nullptr; // the nodes' places, opened at first use
  std::mutex places_mutex;
  natsSubscription *news = nullptr; // other nodes' news (listen)
  std::function<void(std::string_view)> heard;
  ~Nats() {
    if (news) {
      natsSubscription_Unsubscribe(news);
      natsSubscription_Destroy(news);
    }
    kvStore_Destroy(places);
    jsCtx_Destroy(jetstream);
    natsConnection_Destroy(connection);
  }
};

WriteStream::WriteStream(StreamSettings settings)
    : settings_(std::move(settings)), nats_(std::make_unique<Nats>()) {
  if (settings_.servers.empty()) throw StreamUnavailable("no NATS server named");
  natsOptions *options = nullptr;
  if (natsOptions_Create(&options) != NATS_OK) throw StreamUnavailable("libnats: no options");
  std::vector<const char *> servers;
  for (const auto &server : settings_.servers)
    servers.push_back(server.c_str());
  natsOptions_SetServers(options, servers.data(), static_cast<int>(servers.size()));
  natsOptions_SetName(options, settings_.node.c_str());
  const auto refused = [options](const std::string &why) {
    natsOptions_Destroy(options);
    return StreamUnavailable(why);
  };
  // One user for every server: the node's own inbox prefix is that user's.
  const auto user = user_in(settings_.servers.front());
  for (const auto &server : settings_.servers)
    if (user_in(server) != user)
      throw refused("the NATS servers' addresses name more than one user (" + user + ", " +
                    user_in(server) + "): each node signs in to every server as its own user");
  if (natsOptions_SetCustomInboxPrefix(options, inbox_prefix_of(user).c_str()) != NATS_OK)
    throw refused("libnats: the inbox prefix " + inbox_prefix_of(user) + " is refused");
  if (!settings_.creds_file.empty() &&
      natsOptions_SetUserCredentialsFromFiles(options, settings_.creds_file.c_str(), nullptr) !=
          NATS_OK)
    throw refused("the NATS credentials in " + settings_.creds_file + " cannot be read");
  if (!settings_.tls_ca.empty()) {
    natsOptions_SetSecure(options, true);
    if (natsOptions_LoadCATrustedCertificates(options, settings_.tls_ca.c_str()) != NATS_OK)
      throw refused("the CA certificate " + settings_.tls_ca + " cannot be read");
  }
  if (!settings_.tls_cert.empty() &&
      natsOptions_LoadCertificatesChain(options, settings_.tls_cert.c_str(),
                                        settings_.tls_key.c_str()) != NATS_OK)
    throw refused("the certificate " + settings_.tls_cert + " or its key " + settings_.tls_key +
                  " cannot be read");
  natsOptions_SetTimeout(options, 2000);
  // A server that goes is left for another at once; the connection comes back by itself.
  natsOptions_SetMaxReconnect(options, -1);
  natsOptions_SetReconnectWait(options, 250);
  natsOptions_SetPingInterval(options, 2000);
  natsOptions_SetMaxPingsOut(options, 2);
  // While disconnected, a publish is refused at once rather than kept to be sent later: the
  // reader is told the write was not taken.
  natsOptions_SetFailRequestsOnDisconnect(options, true);
  // A node's own news (listen) is not told back to it.
  natsOptions_SetNoEcho(options, true);
  const auto connected = natsConnection_Connect(&nats_->connection, options);
  natsOptions_Destroy(options);
  if (connected != NATS_OK)
    throw StreamUnavailable("no NATS server of the cluster answers: " + said(connected));

  jsOptions js_options;
  jsOptions_Init(&js_options);
  // Questions of the stream (its state, a consumer) may wait longer than a publish: a busy
  // server answers them late, and nobody is kept waiting on them.
  js_options.Wait = std::max<int64_t>(settings_.publish_wait.count(), 2000);
  if (const auto made = natsConnection_JetStream(&nats_->jetstream, nats_->connection, &js_options);
      made != NATS_OK)
    throw StreamUnavailable("JetStream: " + said(made));

  jsStreamInfo *info = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  auto found = NATS_TIMEOUT; // asked again a few times, as state_of does
  for (int tries = 0; tries < 3 && found == NATS_TIMEOUT; ++tries)
    found = js_GetStreamInfo(&info, nats_->jetstream, settings_.stream.c_str(), nullptr, &error);
  if (found == NATS_NOT_FOUND && !settings_.may_create)
    throw StreamUnavailable("the NATS servers hold no stream " + settings_.stream +
                            ": no node of the cluster has started yet, or these are not its "
                            "servers");
  if (found == NATS_NOT_FOUND) {
    jsStreamConfig config;
    jsStreamConfig_Init(&config);
    const char *subjects[] = {settings_.subject.c_str()};
    config.Name = settings_.stream.c_str();
    config.Subjects = subjects;
    config.SubjectsLen = 1;
    config.Storage = js_FileStorage;
    config.Replicas = settings_.replicas;
    config.Retention = js_LimitsPolicy;
    config.Duplicates =
        std::chrono::duration_cast<std::chrono::nanoseconds>(settings_.duplicate_window).count();
    config.MaxAge =
        std::chrono::duration_cast<std::chrono::nanoseconds>(settings_.kept_for).count();
    if (settings_.most_kept > 0) config.MaxMsgs = settings_.most_kept;
    found = js_AddStream(&info, nats_->jetstream, &config, nullptr, &error);
  }
  jsStreamInfo_Destroy(info);
  // The stream cannot answer now (no quorum: nobody answers, or the servers left say they are
  // not available), as against a refusal such as a stream made otherwise.
  const bool unanswered = found == NATS_TIMEOUT || found == NATS_NO_RESPONDERS ||
                          error == JSClusterNotAvailErr || error == JSClusterNotLeaderErr ||
                          error == JSClusterNoPeersErr || error == JSStreamOfflineErr;
  if (unanswered && settings_.may_start_unanswered) return;
  if (found != NATS_OK)
    throw StreamUnavailable("the stream " + settings_.stream +
                            " cannot be found or made: " + said(found, error));
}

WriteStream::~WriteStream() = default;

uint64_t WriteStream::publish(std::string_view payload, const std::string &id) {
  // While the servers elect the stream's new leader (a server went), nobody answers for a few
  // seconds: the write is sent again under its id, so it is stored once, until publish_wait
  // is spent.
  const auto until = std::chrono::steady_clock::now() + settings_.publish_wait;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    jsPubOptions options;
    jsPubOptions_Init(&options);
    options.MsgId = id.c_str();
    options.MaxWait = std::max<int64_t>(left.count(), 1);
    jsPubAck *ack = nullptr;
    jsErrCode error = static_cast<jsErrCode>(0);
    const auto sent = js_Publish(&ack, nats_->jetstream, settings_.subject.c_str(), payload.data(),
                                 static_cast<int>(payload.size()), &options, &error);
    if (sent == NATS_OK) {
      const auto sequence = ack->Sequence;
      const bool duplicate = ack->Duplicate;
      jsPubAck_Destroy(ack);
      // Held before under this id: ours only if it is these bytes (this publish sent again
      // after an answer was lost). Anyone else's entry under our id is not our write.
      if (duplicate) {
        const auto held = entry_at(sequence);
        if (!held || held->payload != payload)
          throw IdTaken("the stream already held another entry under the id " + id + " (at " +
                        std::to_string(sequence) + ")");
      }
      return sequence;
    }
    jsPubAck_Destroy(ack);
    const bool electing = sent == NATS_NO_RESPONDERS || sent == NATS_CONNECTION_DISCONNECTED;
    if (!electing || left <= std::chrono::milliseconds(50))
      throw StreamUnavailable("the write was not acknowledged by a majority of the cluster: " +
                              said(sent, error));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

namespace {

// Servers just come together, or busy, may let one question time out: asked again, a few
// times, before the stream is called unreadable.
template <class Ask> natsStatus asked_again_on_timeout(Ask ask) {
  auto got = NATS_TIMEOUT;
  for (int tries = 0; tries < 3 && got == NATS_TIMEOUT; ++tries)
    got = ask();
  return got;
}

} // namespace

std::optional<StreamEntry> WriteStream::entry_at(uint64_t sequence) {
  natsMsg *message = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  const auto got = asked_again_on_timeout([&] {
    return js_GetMsg(&message, nats_->jetstream, settings_.stream.c_str(), sequence, nullptr,
                     &error);
  });
  if (got == NATS_NOT_FOUND) return std::nullopt;
  if (got != NATS_OK) throw StreamUnavailable("the stream cannot be read: " + said(got, error));
  auto entry = entry_of(message, sequence, natsMsg_GetTime(message));
  natsMsg_Destroy(message);
  return entry;
}

namespace {

struct StreamState {
  uint64_t first = 0, last = 0;
};

StreamState state_of(jsCtx *jetstream, const std::string &stream) {
  jsStreamInfo *info = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  const auto got = asked_again_on_timeout(
      [&] { return js_GetStreamInfo(&info, jetstream, stream.c_str(), nullptr, &error); });
  if (got != NATS_OK) throw StreamUnavailable("the stream cannot be read: " + said(got, error));
  const StreamState state{info->State.FirstSeq, info->State.LastSeq};
  jsStreamInfo_Destroy(info);
  return state;
}

// An ordered consumer: the servers push entries from a sequence on, with no acknowledgements
// to send back. One that loses its place (an entry dropped, its server gone) is made again
// from the next sequence wanted.
class OrderedReader : public StreamReader {
public:
  OrderedReader(jsCtx *jetstream, std::string stream, std::string subject, uint64_t sequence)
      : jetstream_(jetstream), stream_(std::move(stream)), subject_(std::move(subject)),
        next_(sequence) {}
  ~OrderedReader() override { drop(); }

  std::optional<StreamEntry> next(std::chrono::milliseconds wait) override {
    const auto until = std::chrono::steady_clock::now() + wait;
    for (;;) {
      if (!subscription_) subscribe();
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          until - std::chrono::steady_clock::now());
      natsMsg *message = nullptr;
      const auto got =
          natsSubscription_NextMsg(&message, subscription_, std::max<int64_t>(left.count(), 1));
      if (got == NATS_TIMEOUT) return std::nullopt;
      if (got != NATS_OK) { // dropped as a slow consumer, or the subscription went
        drop();
        if (std::chrono::steady_clock::now() >= until) return std::nullopt;
        continue;
      }
      jsMsgMetaData *meta = nullptr;
      uint64_t sequence = 0;
      int64_t stored_at_ns = 0;
      if (natsMsg_GetMetaData(&meta, message) == NATS_OK) {
        sequence = meta->Sequence.Stream;
        stored_at_ns = meta->Timestamp;
        jsMsgMetaData_Destroy(meta);
      }
      if (sequence == next_) {
        auto entry = entry_of(message, sequence, stored_at_ns);
        natsMsg_Destroy(message);
        ++next_;
        return entry;
      }
      natsMsg_Destroy(message);
      if (sequence <= next_) continue;
      // One was missed: start again where it is, unless the stream holds it no more.
      if (const auto first = state_of(jetstream_, stream_).first; first > next_)
        throw StreamUnavailable("the stream no longer holds write " + std::to_string(next_) +
                                " (it keeps " + std::to_string(first) +
                                " on): this node needs a newer backup to start from");
      drop();
    }
  }

private:
  void subscribe() {
    jsSubOptions options;
    jsSubOptions_Init(&options);
    options.Ordered = true;
    options.Config.DeliverPolicy = js_DeliverByStartSequence;
    options.Config.OptStartSeq = next_;
    jsErrCode error = static_cast<jsErrCode>(0);
    const auto made = asked_again_on_timeout([&] {
      return js_SubscribeSync(&subscription_, jetstream_, subject_.c_str(), nullptr, &options,
                              &error);
    });
    if (made != NATS_OK) {
      subscription_ = nullptr;
      throw StreamUnavailable("the stream cannot be read: " + said(made, error));
    }
    // Entries wait here until applied, however many: the default limit drops them under a
    // burst, and every drop costs a new consumer.
    natsSubscription_SetPendingLimits(subscription_, -1, -1);
  }
  void drop() {
    if (!subscription_) return;
    // Destroyed without asking the servers to delete the consumer (no node may delete one:
    // deploy/cluster/nats-authorization.conf): they drop it seconds after its interest goes.
    natsSubscription_Destroy(subscription_);
    subscription_ = nullptr;
  }

  jsCtx *jetstream_;
  std::string stream_, subject_;
  uint64_t next_;
  natsSubscription *subscription_ = nullptr;
};

} // namespace

uint64_t WriteStream::last_sequence() {
  return state_of(nats_->jetstream, settings_.stream).last;
}

std::string WriteStream::why_not_writable() {
  jsStreamInfo *info = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  const auto got =
      js_GetStreamInfo(&info, nats_->jetstream, settings_.stream.c_str(), nullptr, &error);
  if (got != NATS_OK) return "the stream cannot be asked about: " + said(got, error);
  const bool led = !info->Cluster || (info->Cluster->Leader && *info->Cluster->Leader);
  jsStreamInfo_Destroy(info);
  return led ? "" : "the stream has no leader: most of the NATS servers that keep it are down";
}

uint64_t WriteStream::first_sequence() {
  return state_of(nats_->jetstream, settings_.stream).first;
}

namespace {

// The bucket of the nodes' places, made by the first node that reports.
kvStore *places_bucket(jsCtx *jetstream, const StreamSettings &settings) {
  const auto bucket = settings.stream + "_NODES";
  kvStore *places = nullptr;
  if (js_KeyValue(&places, jetstream, bucket.c_str()) == NATS_OK) return places;
  if (!settings.may_create)
    throw StreamUnavailable("the NATS servers hold no bucket " + bucket +
                            ": no node of the cluster has reported its place yet");
  kvConfig config;
  kvConfig_Init(&config);
  config.Bucket = bucket.c_str();
  config.History = 1;
  config.Replicas = settings.replicas;
  if (const auto made = js_CreateKeyValue(&places, jetstream, &config); made != NATS_OK)
    throw StreamUnavailable("the nodes' places cannot be kept: " + said(made));
  return places;
}

} // namespace

void WriteStream::announce(std::string_view news) {
  natsConnection_Publish(nats_->connection, (settings_.subject + ".news").c_str(), news.data(),
                         static_cast<int>(news.size()));
}

void WriteStream::listen(std::function<void(std::string_view news)> heard) {
  nats_->heard = std::move(heard);
  const auto told = [](natsConnection *, natsSubscription *, natsMsg *message, void *closure) {
    auto &nats = *static_cast<Nats *>(closure);
    nats.heard(std::string_view(natsMsg_GetData(message),
                                static_cast<size_t>(natsMsg_GetDataLength(message))));
    natsMsg_Destroy(message);
  };
  if (const auto subscribed =
          natsConnection_Subscribe(&nats_->news, nats_->connection,
                                   (settings_.subject + ".news").c_str(), told, nats_.get());
      subscribed != NATS_OK)
    throw StreamUnavailable("the other nodes' news cannot be heard: " + said(subscribed));
}

namespace {

// What a node's report is sealed under: its name, so a report moved under another node's
// name does not open.
std::string place_seal_id(const std::string &node) {
  return "place " + node;
}

} // namespace

int64_t WriteStream::report_place(const NodePlace &place, const ClusterKey &key) {
  std::lock_guard lock(nats_->places_mutex);
  if (!nats_->places) nats_->places = places_bucket(nats_->jetstream, settings_);
  // "APPLIED SKIPPED LAST_SKIPPED PROBLEM…" sealed at the report's time: the problem last, as
  // the rest of the line.
  const auto value = key.seal(std::to_string(place.applied) + " " + std::to_string(place.skipped) +
                                  " " + std::to_string(place.last_skipped) + " " + place.problem,
                              place_seal_id(place.node), place.reported_at * 1000);
  uint64_t revision = 0;
  if (const auto put = kvStore_Put(&revision, nats_->places, place.node.c_str(), value.data(),
                                   static_cast<int>(value.size()));
      put != NATS_OK)
    throw StreamUnavailable("this node's place cannot be reported: " + said(put));
  kvEntry *stored = nullptr;
  int64_t stored_at_ms = 0;
  if (kvStore_Get(&stored, nats_->places, place.node.c_str()) == NATS_OK &&
      kvEntry_Revision(stored) == revision)
    stored_at_ms = kvEntry_Created(stored) / 1'000'000;
  kvEntry_Destroy(stored);
  return stored_at_ms;
}

std::vector<WriteStream::NodePlace> WriteStream::node_places(const ClusterKey &key) {
  std::lock_guard lock(nats_->places_mutex);
  if (!nats_->places) nats_->places = places_bucket(nats_->jetstream, settings_);
  // The keys as the bucket's stream lists its subjects: no consumer is made to read them.
  const auto bucket = settings_.stream + "_NODES";
  const auto prefix = "$KV." + bucket + ".";
  const auto filter = prefix + ">";
  jsOptions options;
  jsOptions_Init(&options);
  options.Stream.Info.SubjectsFilter = filter.c_str();
  jsStreamInfo *info = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  const auto listed = asked_again_on_timeout([&] {
    return js_GetStreamInfo(&info, nats_->jetstream, ("KV_" + bucket).c_str(), &options, &error);
  });
  if (listed != NATS_OK)
    throw StreamUnavailable("the nodes' places cannot be read: " + said(listed, error));
  std::vector<std::string> keys;
  if (info->State.Subjects)
    for (int i = 0; i < info->State.Subjects->Count; ++i)
      keys.push_back(std::string(info->State.Subjects->List[i].Subject).substr(prefix.size()));
  jsStreamInfo_Destroy(info);
  std::vector<NodePlace> places;
  for (const auto &key_name : keys) {
    kvEntry *entry = nullptr;
    if (kvStore_Get(&entry, nats_->places, key_name.c_str()) != NATS_OK) continue; // deleted
    NodePlace place;
    place.node = key_name;
    const auto opened = key.open(std::string_view(static_cast<const char *>(kvEntry_Value(entry)),
                                                  static_cast<size_t>(kvEntry_ValueLen(entry))),
                                 place_seal_id(place.node));
    kvEntry_Destroy(entry);
    unsigned long long applied = 0, skipped = 0, last_skipped = 0;
    int problem_at = 0;
    if (!opened || std::sscanf(opened->plain.c_str(), "%llu %llu %llu %n", &applied, &skipped,
                               &last_skipped, &problem_at) < 3) {
      place.forged = true;
    } else {
      place.applied = applied;
      place.reported_at = opened->sealed_at_ms / 1000;
      place.skipped = skipped;
      place.last_skipped = last_skipped;
      if (problem_at > 0) place.problem = opened->plain.substr(static_cast<size_t>(problem_at));
    }
    places.push_back(place);
  }
  std::sort(places.begin(), places.end(),
            [](const NodePlace &a, const NodePlace &b) { return a.node < b.node; });
  return places;
}

std::unique_ptr<StreamReader> WriteStream::read_from(uint64_t sequence) {
  return std::make_unique<OrderedReader>(nats_->jetstream, settings_.stream, settings_.subject,
                                         sequence);
}

} // namespace verdict::cluster
